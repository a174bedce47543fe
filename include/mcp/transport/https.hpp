// HTTPS for the SDK's listener: TLS from OpenSSL through asio::ssl. Opt-in twice over: nothing
// else includes this header, and a program that does links OpenSSL (CMake: find_package(OpenSSL)
// and OpenSSL::SSL; Debian: libssl-dev).
//
//   mcp::http::options opts;
//   opts.port = 8443;
//   opts.tls = mcp::http::make_tls({"server.pem", "server.key"});  // a certificate chain and its key, PEM
//   return mcp::http::serve(srv, opts);
//
// Everything else is as over plain HTTP. A client that fails the handshake, or does not finish it
// within read_timeout, is disconnected without an answer.
#pragma once

#include <mcp/transport/detail/http_connection.hpp>
#include <mcp/transport/http.hpp>

#include <asio/generic/stream_protocol.hpp>
#include <asio/ssl.hpp>
#include <asio/write.hpp>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace http {

struct tls_options {
  std::string certificate_chain_file;  // PEM: the server's certificate first, then intermediates
  std::string private_key_file;        // PEM
};

}  // namespace http

namespace detail {
namespace http {

// One connection's TLS: an asio::ssl::stream over the connection's own socket, on its strand.
class asio_tls_layer final : public tls_layer {
 public:
  using socket_type = asio::generic::stream_protocol::socket;
  asio_tls_layer(socket_type& socket, std::shared_ptr<asio::ssl::context> context)
      : context_(std::move(context)), stream_(socket, *context_) {}

  void async_handshake(std::function<void(asio::error_code)> fn) override {
    stream_.async_handshake(asio::ssl::stream_base::server, std::move(fn));
  }
  void async_read_some(asio::mutable_buffer into, done fn) override { stream_.async_read_some(into, std::move(fn)); }
  void async_write(std::vector<asio::const_buffer> from, done fn, std::function<void()> progress) override {
    asio::async_write(
        stream_, std::move(from),
        [progress = std::move(progress)](const asio::error_code& ec, std::size_t written) {
          if (written > 0 && progress) progress();  // after each record written (and with 0 before the first)
          return asio::transfer_all()(ec, written);
        },
        std::move(fn));
  }

 private:
  std::shared_ptr<asio::ssl::context> context_;  // shared by every connection of the listener
  asio::ssl::stream<socket_type&> stream_;
};

// The tls_setup make_tls gives: the loaded context, which every connection's layer shares.
class asio_tls_opener final : public tls_opener {
 public:
  explicit asio_tls_opener(std::shared_ptr<asio::ssl::context> context) : context_(std::move(context)) {}
  std::unique_ptr<tls_layer> open(asio::generic::stream_protocol::socket& socket) const override {
    return std::make_unique<asio_tls_layer>(socket, context_);
  }

 private:
  std::shared_ptr<asio::ssl::context> context_;
};

}  // namespace http
}  // namespace detail

namespace http {

// A TLS setting for http::options::tls: reads both files now, throws std::system_error naming the
// file that cannot be used. TLS 1.2 and later only. Thread-safe; the result may serve any number
// of listeners at once.
inline std::shared_ptr<const tls_setup> make_tls(const tls_options& tls) {
  auto context = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_server);
  context->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                       asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                       asio::ssl::context::no_tlsv1_1 | asio::ssl::context::single_dh_use);
  auto load = [](const std::string& file, auto&& use) {
    asio::error_code ec;
    use(ec);
    if (ec) throw std::system_error(ec, "mcp::http::make_tls: cannot use '" + file + "'");
  };
  load(tls.certificate_chain_file,
       [&](asio::error_code& ec) { context->use_certificate_chain_file(tls.certificate_chain_file, ec); });
  load(tls.private_key_file,
       [&](asio::error_code& ec) { context->use_private_key_file(tls.private_key_file, asio::ssl::context::pem, ec); });
  return std::make_shared<const detail::http::asio_tls_opener>(std::move(context));
}

}  // namespace http
}  // namespace v0
}  // namespace mcp
