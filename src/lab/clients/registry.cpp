// The one list of client runtimes, in report order.
#include <sys/stat.h>

#include <cctype>
#include <fstream>

#include "lab/clients/client.h"
#include "lab/clients/client_programs.h"
#include "lab/process.h"

// Each entry is (FUNCTION, ID): FUNCTION_client() is defined by one file in this folder and
// returns the ClientKind of ID. Adding a runtime is its file, its program under programs/ and
// one line here (docs/lab.md, "Adding a client runtime").
#define CUTOVER_LAB_CLIENTS(X)            \
  X(python, "python")                     \
  X(python_requests, "python-requests")   \
  X(curl, "curl")                         \
  X(curl_long, "curl-long")               \
  X(java, "java")                         \
  X(java_ttl0, "java-ttl0")               \
  X(java_ttl5, "java-ttl5")               \
  X(java_forever, "java-forever")         \
  X(java_httpclient, "java-httpclient")   \
  X(go, "go")                             \
  X(go_cgo, "go-cgo")                     \
  X(node, "node")                         \
  X(node_keepalive, "node-keepalive")     \
  X(cutover, "cutover")

namespace cutover::lab {

#define CUTOVER_DECLARE_CLIENT(function, id) ClientKind function##_client();
CUTOVER_LAB_CLIENTS(CUTOVER_DECLARE_CLIENT)
#undef CUTOVER_DECLARE_CLIENT

namespace {

const std::vector<ClientKind>& kinds() {
#define CUTOVER_CLIENT_ENTRY(function, id) function##_client(),
  static const std::vector<ClientKind> kKinds = {CUTOVER_LAB_CLIENTS(CUTOVER_CLIENT_ENTRY)};
#undef CUTOVER_CLIENT_ENTRY
  return kKinds;
}

}  // namespace

std::vector<std::string> builtin_client_ids() {
  std::vector<std::string> ids;
  for (const auto& kind : kinds()) ids.push_back(kind.id);
  return ids;
}

std::vector<std::string> ci_client_ids() { return {"python", "curl", "curl-long", "java", "cutover"}; }

std::unique_ptr<ClientAdapter> make_client(const std::string& id) {
  for (const auto& kind : kinds()) {
    if (kind.id == id) return kind.make();
  }
  return nullptr;
}

std::string ClientAdapter::unsupported(const ClientPaths&) const {
  if (!program_exists(program())) return "not supported: " + program() + " is missing, install " + package();
  return {};
}

std::vector<std::string> ClientAdapter::common_flags(const ClientInvocation& run) {
  std::vector<std::string> flags = {run.url, "--interval", std::to_string(run.interval), "--count",
                                    std::to_string(run.count)};
  if (run.connect_timeout) {
    flags.push_back("--connect-timeout");
    flags.push_back(std::to_string(*run.connect_timeout));
  }
  return flags;
}

base::Status write_client_programs(const std::string& dir) {
  ::mkdir(dir.c_str(), 0755);
  for (const auto& [name, text] : client_programs()) {
    std::string path = dir + "/" + std::string(name);
    std::ofstream out(path, std::ios::trunc);
    out << text;
    out.close();
    if (!out) return base::make_error(base::ErrorCode::kIo, "cannot write " + path);
    ::chmod(path.c_str(), 0755);
  }
  return {};
}

}  // namespace cutover::lab

namespace cutover::lab {

std::string client_version_in(const std::string& text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) continue;
    std::size_t end = i;
    while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.')) ++end;
    std::string candidate = text.substr(i, end - i);
    if (candidate.find('.') != std::string::npos && candidate.back() != '.') return candidate;
    i = end;
  }
  return text.substr(0, text.find('\n'));
}

}  // namespace cutover::lab
