// Python clients: `python` (urllib.request, a new connection per request, glibc getaddrinfo)
// and `python-requests` (one requests.Session, which keeps its connection). Both run Debian's
// /usr/bin/python3 on programs/fetch.py, never another Python on PATH.
#include "lab/clients/client.h"
#include "lab/process.h"

namespace cutover::lab {
namespace {

constexpr const char* kPython = "/usr/bin/python3";

class PythonClient : public ClientAdapter {
 public:
  explicit PythonClient(bool requests) : requests_(requests) {}
  std::string id() const override { return requests_ ? "python-requests" : "python"; }
  std::string runtime() const override { return "Python"; }
  std::string setting() const override {
    return requests_ ? "requests.Session (keep-alive), glibc getaddrinfo" : "urllib.request, glibc getaddrinfo";
  }
  std::string program() const override { return kPython; }
  std::string package() const override { return requests_ ? "python3-requests" : "python3"; }
  bool reuses_connections() const override { return requests_; }
  ClientCache cache() const override { return {ClientCache::Kind::kNone, 0, 0, "none (every request calls getaddrinfo)"}; }

  std::string unsupported(const ClientPaths& paths) const override {
    std::string missing = ClientAdapter::unsupported(paths);
    if (!missing.empty() || !requests_) return missing;
    if (run_capture({kPython, "-c", "import requests"}).exit_code != 0) {
      return "not supported: /usr/bin/python3 cannot import requests, install python3-requests";
    }
    return {};
  }
  std::string version(const ClientPaths& paths) const override {
    CommandOutput out = run_capture({kPython, paths.programs_dir + "/fetch.py", "--library", library(), "--version", "x"});
    return out.exit_code == 0 ? out.text.substr(0, out.text.find('\n')) : std::string();
  }
  std::vector<std::string> command(const ClientPaths& paths, const ClientInvocation& run) const override {
    std::vector<std::string> argv = {kPython, paths.programs_dir + "/fetch.py", "--library", library()};
    for (auto& flag : common_flags(run)) argv.push_back(flag);
    return argv;
  }

 private:
  std::string library() const { return requests_ ? "requests" : "urllib"; }
  bool requests_;
};

}  // namespace

ClientKind python_client() {
  return {"python", [] { return std::unique_ptr<ClientAdapter>(new PythonClient(false)); }};
}
ClientKind python_requests_client() {
  return {"python-requests", [] { return std::unique_ptr<ClientAdapter>(new PythonClient(true)); }};
}

}  // namespace cutover::lab
