#!/usr/bin/python3
# No detail:: type in a public signature: parses every public header of the SDK (include/mcp, not
# detail/ or impl/) with libclang and looks at what a user can name: functions, members and
# aliases that are public, in namespace mcp outside mcp::...::detail. The types in their
# signatures (return, parameters, a data member's type, an alias's target) must not name a
# detail:: type; nor may the type a public header gives an entity be spelled through one.
# Usage: public_api_check.py INCLUDE_DIR [CLANG_ARG...]   (exit 0: none found, 1: found, 77: no libclang)
import os
import sys
import tempfile

try:
    import clang.cindex as ci
except ImportError:
    print("public_api_check: python3-clang is not installed (Debian: python3-clang-14); skipped")
    sys.exit(77)

include_dir = os.path.abspath(sys.argv[1])
extra = sys.argv[2:]
if os.path.isdir("/usr/lib/llvm-14/lib") and not ci.Config.loaded:
    ci.Config.set_library_path("/usr/lib/llvm-14/lib")

public_headers = []
for root, dirs, files in os.walk(os.path.join(include_dir, "mcp")):
    rel = os.path.relpath(root, include_dir)
    parts = rel.split(os.sep)
    if "detail" in parts or "impl" in parts:
        continue
    for f in sorted(files):
        if f.endswith(".hpp"):
            public_headers.append(os.path.join(rel, f))
public_headers.sort()

K = ci.CursorKind
SIGNATURES = {K.FUNCTION_DECL, K.CXX_METHOD, K.CONSTRUCTOR, K.CONVERSION_FUNCTION, K.FUNCTION_TEMPLATE,
              K.FIELD_DECL, K.VAR_DECL, K.TYPE_ALIAS_DECL, K.TYPEDEF_DECL}
SCOPES = {K.NAMESPACE, K.CLASS_DECL, K.STRUCT_DECL, K.CLASS_TEMPLATE, K.UNION_DECL}


def named_detail(text):
    return "detail::" in text


def signature_texts(c):
    """The types a user meets in this declaration's signature, as spelled."""
    out = []
    if c.kind in (K.FIELD_DECL, K.VAR_DECL):
        out.append(c.type.spelling)
    elif c.kind in (K.TYPE_ALIAS_DECL, K.TYPEDEF_DECL):
        out.append(c.underlying_typedef_type.spelling)
    else:
        if c.kind not in (K.CONSTRUCTOR,):
            out.append(c.result_type.spelling)
        for a in c.get_arguments():
            out.append(a.type.spelling)
        if c.kind == K.FUNCTION_TEMPLATE:  # libclang gives no arguments: read the parameters' tokens
            for ch in c.get_children():
                if ch.kind == K.PARM_DECL:
                    out.append(" ".join(t.spelling for t in ch.get_tokens()))
    return out


problems = []


def walk(c, header_path, in_detail, public):
    for ch in c.get_children():
        loc = ch.location
        if loc.file is None or os.path.abspath(loc.file.name) != header_path:
            continue
        access_public = ch.access_specifier in (ci.AccessSpecifier.PUBLIC, ci.AccessSpecifier.INVALID,
                                                ci.AccessSpecifier.NONE)
        if ch.kind == K.NAMESPACE:
            walk(ch, header_path, in_detail or ch.spelling == "detail", public)
        elif ch.kind in SCOPES:
            walk(ch, header_path, in_detail, public and access_public)
        elif ch.kind in SIGNATURES and not in_detail and public and access_public:
            for text in signature_texts(ch):
                if named_detail(text):
                    problems.append("%s:%d: %s: %s" % (os.path.relpath(header_path, include_dir), loc.line,
                                                        ch.displayname or ch.spelling, text))
                    break


index = ci.Index.create()
args = ["-x", "c++", "-std=c++17", "-I" + include_dir, "-DASIO_STANDALONE"] + extra

# The check can fail: a header with a detail:: type in a public member, beside one in a private
# member and one in a detail namespace (both allowed), must give exactly one finding.
with tempfile.TemporaryDirectory() as scratch:
    fixture = os.path.join(scratch, "fixture.hpp")
    with open(fixture, "w") as f:
        f.write("namespace mcp { namespace detail { struct hidden {}; inline hidden make() { return {}; } }\n"
                "class shown { public: detail::hidden leak() const; private: detail::hidden kept_; };\n"
                "inline int fine(int x) { return x; } }\n")
    tu = index.parse(fixture, args=args, options=ci.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES)
    walk(tu.cursor, os.path.abspath(fixture), False, True)
    if len(problems) != 1 or "leak" not in problems[0]:
        print("public_api_check: the check does not find the one public detail:: type of its fixture: %s" % problems)
        sys.exit(1)
    problems.clear()

for rel in public_headers:
    path = os.path.join(include_dir, rel)
    tu = index.parse(path, args=args, options=ci.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES)
    errors = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
    if errors:
        print("public_api_check: %s does not parse: %s" % (rel, errors[0]))
        sys.exit(1)
    walk(tu.cursor, os.path.abspath(path), False, True)

for p in problems:
    print("public_api_check: detail:: type in a public signature: " + p)
print("public_api_check: %d public headers, %d problems" % (len(public_headers), len(problems)))
sys.exit(1 if problems else 0)
