// OpenJDK clients, all on programs/LabClient.java compiled once per run with javac:
// `java` (HttpURLConnection, the JDK's default address cache), `java-ttl0`, `java-ttl5`,
// `java-forever` (networkaddress.cache.ttl 0, 5 and -1, set through a security properties
// file given with -Djava.security.properties, as the Java networking properties document)
// and `java-httpclient` (java.net.http.HttpClient, default cache). The JIT is limited to its
// first tier and the serial collector is used so that a dozen JVMs can start at once on a
// small machine; neither touches networking.
#include <fstream>
#include <optional>

#include "lab/clients/client.h"
#include "lab/process.h"

namespace cutover::lab {
namespace {

class JavaClient : public ClientAdapter {
 public:
  JavaClient(std::string id, std::optional<int> ttl, bool httpclient)
      : id_(std::move(id)), ttl_(ttl), httpclient_(httpclient) {}
  std::string id() const override { return id_; }
  std::string runtime() const override { return "OpenJDK"; }
  std::string setting() const override {
    std::string api = httpclient_ ? "java.net.http.HttpClient" : "HttpURLConnection";
    return api + (ttl_ ? ", networkaddress.cache.ttl=" + std::to_string(*ttl_) : ", default cache");
  }
  std::string program() const override { return "javac"; }
  std::string package() const override { return "openjdk-17-jdk-headless"; }
  // Both APIs keep an idle connection for reuse by default (http.keepAlive, the HttpClient pool).
  bool reuses_connections() const override { return true; }
  ClientCache cache() const override {
    // networkaddress.cache.negative.ttl is 10 in the JDK's java.security, left alone.
    if (!ttl_) return {ClientCache::Kind::kFromFirstLookup, 30, 10, "JDK default without a security manager (30 s)"};
    if (*ttl_ < 0) return {ClientCache::Kind::kForever, 0, 10, "networkaddress.cache.ttl=-1 (forever)"};
    if (*ttl_ == 0) return {ClientCache::Kind::kNone, 0, 10, "networkaddress.cache.ttl=0"};
    return {ClientCache::Kind::kFromFirstLookup, static_cast<double>(*ttl_), 10,
            "networkaddress.cache.ttl=" + std::to_string(*ttl_)};
  }
  std::string unsupported(const ClientPaths& paths) const override {
    std::string missing = ClientAdapter::unsupported(paths);
    if (!missing.empty()) return missing;
    if (!program_exists("java")) return "not supported: java is missing, install openjdk-17-jdk-headless";
    return {};
  }
  base::Status prepare(const ClientPaths& paths) const override {
    std::string classes = classes_dir(paths);
    CommandOutput out = run_capture({"javac", "-d", classes, paths.programs_dir + "/LabClient.java"});
    if (out.exit_code != 0) return base::make_error(base::ErrorCode::kIo, "javac LabClient.java failed:\n" + out.text);
    if (ttl_) {
      std::ofstream file(properties(paths), std::ios::trunc);
      file << "networkaddress.cache.ttl=" << *ttl_ << "\n";
      if (!file) return base::make_error(base::ErrorCode::kIo, "cannot write " + properties(paths));
    }
    return {};
  }
  std::string version(const ClientPaths&) const override {
    CommandOutput out = run_capture({"java", "-version"});
    return out.exit_code == 0 ? client_version_in(out.text) : std::string();
  }
  std::vector<std::string> command(const ClientPaths& paths, const ClientInvocation& run) const override {
    std::vector<std::string> argv = {"java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"};
    if (ttl_) argv.push_back("-Djava.security.properties=" + properties(paths));
    for (const std::string& arg : {std::string("-cp"), classes_dir(paths), std::string("LabClient")}) argv.push_back(arg);
    for (auto& flag : common_flags(run)) argv.push_back(flag);
    argv.push_back("--api");
    argv.push_back(httpclient_ ? "httpclient" : "urlconnection");
    return argv;
  }

 private:
  // Per id, so the runtimes of one run build side by side without sharing a directory.
  std::string classes_dir(const ClientPaths& paths) const { return paths.build_dir + "/" + id_ + "-classes"; }
  std::string properties(const ClientPaths& paths) const { return paths.build_dir + "/" + id_ + ".security"; }
  std::string id_;
  std::optional<int> ttl_;
  bool httpclient_;
};

template <int kTtl, bool kHasTtl, bool kHttpClient>
std::unique_ptr<ClientAdapter> make_java(const char* id) {
  return std::make_unique<JavaClient>(id, kHasTtl ? std::optional<int>(kTtl) : std::nullopt, kHttpClient);
}

}  // namespace

ClientKind java_client() { return {"java", [] { return make_java<0, false, false>("java"); }}; }
ClientKind java_ttl0_client() { return {"java-ttl0", [] { return make_java<0, true, false>("java-ttl0"); }}; }
ClientKind java_ttl5_client() { return {"java-ttl5", [] { return make_java<5, true, false>("java-ttl5"); }}; }
ClientKind java_forever_client() { return {"java-forever", [] { return make_java<-1, true, false>("java-forever"); }}; }
ClientKind java_httpclient_client() {
  return {"java-httpclient", [] { return make_java<0, false, true>("java-httpclient"); }};
}

}  // namespace cutover::lab
