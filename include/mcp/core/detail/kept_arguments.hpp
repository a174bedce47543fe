// A tool's argument objects, kept between calls: the next call's arguments are read into one
// (typed_reader reads over an earlier value as into a fresh one, and so does json_reader for a
// tool that takes the tree), so its strings, lists and nodes reuse their storage instead of being
// allocated and freed per call.
// Threads: every member from any thread; an object given out is the caller's alone until it comes
// back through the pointer hold() made or through give_back().
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {

template <class T>
class kept_arguments : public std::enable_shared_from_this<kept_arguments<T>> {
 public:
  // At most `count` objects are kept (as many as calls of one tool usually run at once), and only
  // while the texts last read into them total at most `text_bytes`: what is held stays in
  // proportion to that, and a call beyond it leaves none of its storage held. The budget keeps a
  // stream of calls of up to a megabyte each, as many as run at once: the objects freed per call
  // would sit in malloc's free lists anyway (bench order_rt, N = 10,000, 700 KB a call: resident
  // memory after a burst 55 MB whether trees were kept or freed). Smaller budgets cost speed, and
  // one that keeps only some of them memory too, the freed trees' memory scattered among the
  // threads' arenas (512 KiB, none kept: 137 calls/s, 52 MiB peak; 2 MiB: 246, 95 MiB; 8 MiB: 307, 55 MiB).
  static constexpr std::size_t count = 8;
  static constexpr std::size_t text_bytes = 8 * 1024 * 1024;

  kept_arguments() { kept_.reserve(count); }

  // An object to read into: a kept one, which may hold an earlier value, or a new one.
  std::unique_ptr<T> take() {
    {
      std::lock_guard lock(mutex_);
      if (!kept_.empty()) {
        auto out = std::move(kept_.back().object);
        kept_text_ -= kept_.back().text_size;
        kept_.pop_back();
        return out;
      }
    }
    return std::make_unique<T>();
  }

  // `object`, read from `text_size` bytes, as a call's arguments: kept again when the call lets go.
  std::shared_ptr<const void> hold(std::unique_ptr<T> object, std::size_t text_size) {
    if (text_size > text_bytes) return std::shared_ptr<const T>(std::move(object));
    // Should making the pointer fail, shared_ptr passes the object to the deleter: kept or freed.
    return std::shared_ptr<const T>(object.release(), [self = this->shared_from_this(), text_size](const T* p) {
      self->give_back(std::unique_ptr<T>(const_cast<T*>(p)), text_size);
    });
  }

  // An object taken, last read from `text_size` bytes: kept, or freed when enough are.
  void give_back(std::unique_ptr<T> object, std::size_t text_size) noexcept {
    std::lock_guard lock(mutex_);
    if (kept_.size() < count && text_size <= text_bytes - kept_text_) {
      kept_.push_back({std::move(object), text_size});  // reserved: no allocation
      kept_text_ += text_size;
    }
  }  // (one not kept is freed here, after the lock is released: `object` outlives `lock`)

  std::size_t kept() const {
    std::lock_guard lock(mutex_);
    return kept_.size();
  }

 private:
  struct entry {
    std::unique_ptr<T> object;
    std::size_t text_size;
  };
  mutable std::mutex mutex_;
  std::vector<entry> kept_;
  std::size_t kept_text_ = 0;  // the sum of kept_'s text_size, at most text_bytes
};

}  // namespace detail
}  // namespace v0
}  // namespace mcp
