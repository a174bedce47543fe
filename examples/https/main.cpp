// The notes tools over HTTPS: the SDK's listener with TLS from OpenSSL (transport/https.hpp).
//
//   https_notes --http 127.0.0.1:8443 --cert server.pem --key server.key [--store PATH]
//
// A throwaway certificate for a local try (one line):
//   openssl req -x509 -newkey rsa:2048 -nodes -days 7 -subj /CN=127.0.0.1
//     -addext subjectAltName=IP:127.0.0.1 -keyout server.key -out server.pem
#include <mcp/ext/tasks.hpp>  // export_notes runs as a task for clients that ask
#include <mcp/mcp.hpp>
#include <mcp/transport/https.hpp>

#include "../notes/tools.hpp"

#include <iostream>
#include <string>

int main(int argc, char** argv) {
  std::string address = "127.0.0.1:8443", store_path = "notes.json";
  mcp::http::tls_options tls;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    if (arg == "--http") address = argv[i + 1];
    else if (arg == "--cert") tls.certificate_chain_file = argv[i + 1];
    else if (arg == "--key") tls.private_key_file = argv[i + 1];
    else if (arg == "--store") store_path = argv[i + 1];
    else return std::cerr << "https_notes: unknown argument '" << arg << "'\n", 2;
  }
  const auto where = mcp::http::parse_host_port(address);
  if (!where || tls.certificate_chain_file.empty() || tls.private_key_file.empty()) {
    std::cerr << "usage: https_notes --http HOST:PORT --cert CHAIN.pem --key KEY.pem [--store PATH]\n";
    return 2;
  }
  notes::store db(store_path);
  mcp::server srv({.name = "notes", .version = "1.0.0"});
  mcp::enable_tasks(srv);
  notes::register_tools(srv, db);
  mcp::http::options options;
  options.host = where->first;
  options.port = where->second;
  try {
    options.tls = mcp::http::make_tls(tls);
  } catch (const std::exception& e) {
    std::cerr << "https_notes: " << e.what() << "\n";
    return 1;
  }
  return mcp::http::serve(srv, options);
}
