// http/https probes over libcurl (loaded on the first probe run, see curl_library.h). The URL
// names the configured host (so Host, SNI and the certificate name check all use it) while
// CURLOPT_CONNECT_TO sends the connection to the endpoint's own address: the probe tests this
// endpoint, whatever DNS says about the host.
#include "health/http/http_probe.h"

#include <cstring>
#include <ctime>

#include "health/http/curl_library.h"

#include <fmt/format.h>

namespace cutover::health {
namespace {

struct BodyCapture {
  std::string body;
  std::size_t limit = 0;
};

// Keeps at most `limit` bytes; returning less than offered makes curl stop reading, which
// is how an endless or huge body is bounded.
std::size_t capture_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto* capture = static_cast<BodyCapture*>(user);
  std::size_t bytes = size * count;
  std::size_t room = capture->limit - capture->body.size();
  capture->body.append(data, std::min(bytes, room));
  return bytes <= room ? bytes : 0;
}

std::string host_for_url(const std::string& host) {
  return host.find(':') != std::string::npos ? "[" + host + "]" : host;
}

std::optional<int> certificate_days(const CurlLibrary& curl, CURL* handle) {
  curl_certinfo* info = nullptr;
  if (curl.easy_getinfo(handle, CURLINFO_CERTINFO, &info) != CURLE_OK || info == nullptr || info->num_of_certs < 1) {
    return std::nullopt;
  }
  for (curl_slist* field = info->certinfo[0]; field != nullptr; field = field->next) {
    std::string text = field->data;
    constexpr std::string_view kExpire = "Expire date:";
    if (text.rfind(kExpire, 0) == 0) return days_until(text.substr(kExpire.size()), std::chrono::system_clock::now());
  }
  return std::nullopt;
}

class HttpProbe : public Probe {
 public:
  HttpProbe(const CheckSettings& settings, std::shared_ptr<const HttpOptions> options, bool tls)
      : settings_(settings), options_(std::move(options)), tls_(tls) {}

  ProbeResult run(const Target& target) override {
    ProbeTimer timer;
    const base::Result<CurlLibrary>& library = curl_library();
    if (!library.ok()) return timer.finish(ProbeOutcome::kError, library.error().message);
    const CurlLibrary& curl = *library;
    CURL* handle = curl.easy_init();
    if (handle == nullptr) return timer.finish(ProbeOutcome::kError, "cannot create a curl handle");
    const HttpOptions& http = *options_;
    std::string host = http.host.empty() ? target.address : http.host;
    std::string url = fmt::format("{}://{}:{}{}", tls_ ? "https" : "http", host_for_url(host), target.port, http.path);
    std::string connect_to = fmt::format("{}:{}:{}:{}", host_for_url(host), target.port,
                                         host_for_url(target.address), target.port);
    curl_slist* connect_list = curl.slist_append(nullptr, connect_to.c_str());
    curl_slist* headers = nullptr;
    for (const auto& [name, value] : http.headers) headers = curl.slist_append(headers, (name + ": " + value).c_str());
    BodyCapture capture{{}, http.body_limit};
    char error_text[CURL_ERROR_SIZE] = {0};
    long timeout_ms = static_cast<long>(settings_.timeout.count());

    curl.easy_setopt(handle, CURLOPT_URL, url.c_str());
    curl.easy_setopt(handle, CURLOPT_CONNECT_TO, connect_list);
    curl.easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
    curl.easy_setopt(handle, CURLOPT_CUSTOMREQUEST, http.method.c_str());
    if (http.method == "HEAD") curl.easy_setopt(handle, CURLOPT_NOBODY, 1L);
    curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);  // threads: no SIGALRM-based DNS timeouts
    curl.easy_setopt(handle, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl.easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
    curl.easy_setopt(handle, CURLOPT_FORBID_REUSE, 1L);
    curl.easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 0L);
    curl.easy_setopt(handle, CURLOPT_PROXY, "");
    curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, capture_body);
    curl.easy_setopt(handle, CURLOPT_WRITEDATA, &capture);
    curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, error_text);
    if (tls_) {
      curl.easy_setopt(handle, CURLOPT_CERTINFO, 1L);
      if (!http.ca_file.empty()) curl.easy_setopt(handle, CURLOPT_CAINFO, http.ca_file.c_str());
    }

    CURLcode code = curl.easy_perform(handle);
    ProbeResult result = classify(curl, handle, code, error_text, capture, timer);
    if (tls_ && code == CURLE_OK) result.cert_days_left = certificate_days(curl, handle);
    curl.slist_free_all(headers);
    curl.slist_free_all(connect_list);
    curl.easy_cleanup(handle);
    return result;
  }

 private:
  ProbeResult classify(const CurlLibrary& curl, CURL* handle, CURLcode code, const char* error_text, const BodyCapture& capture,
                       const ProbeTimer& timer) const {
    bool body_truncated = code == CURLE_WRITE_ERROR && capture.body.size() >= capture.limit;
    if (code != CURLE_OK && !body_truncated) {
      std::string reason = error_text[0] != '\0' ? error_text : curl.easy_strerror(code);
      long os_errno = 0;  // curl's own text drops the system's reason (refused, unreachable)
      if (curl.easy_getinfo(handle, CURLINFO_OS_ERRNO, &os_errno) == CURLE_OK && os_errno != 0) {
        reason += fmt::format(" ({})", std::strerror(static_cast<int>(os_errno)));
      }
      ProbeOutcome outcome = code == CURLE_OUT_OF_MEMORY || code == CURLE_FAILED_INIT ? ProbeOutcome::kError
                                                                                      : ProbeOutcome::kFail;
      return timer.finish(outcome, fmt::format("{}: {}", curl.easy_strerror(code), reason));
    }
    long status = 0;
    curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
    if (!status_expected(static_cast<int>(status), options_->expect_status)) {
      return timer.finish(ProbeOutcome::kFail, fmt::format("unexpected HTTP status {}", status));
    }
    const std::string& needle = options_->body_contains;
    if (!needle.empty() && capture.body.find(needle) == std::string::npos) {
      return timer.finish(ProbeOutcome::kFail, fmt::format("HTTP {}: body lacks \"{}\" in its first {} bytes", status,
                                                           needle, capture.body.size()));
    }
    return timer.finish(ProbeOutcome::kPass, fmt::format("HTTP {}", status));
  }

  CheckSettings settings_;
  std::shared_ptr<const HttpOptions> options_;
  bool tls_;
};

base::Result<std::unique_ptr<Probe>> make_http_probe(const CheckSettings& settings, bool tls) {
  auto options = std::dynamic_pointer_cast<const HttpOptions>(settings.options);
  if (!options) options = std::make_shared<const HttpOptions>();
  return std::unique_ptr<Probe>(std::make_unique<HttpProbe>(settings, std::move(options), tls));
}

ProbeType http_type(std::string name, std::uint16_t default_port, bool tls) {
  return ProbeType{
      .name = std::move(name),
      .default_port = default_port,
      .option_keys = {kHttpOptionKeys.begin(), kHttpOptionKeys.end()},
      .options = options_parser<HttpOptions>(read_http_option),
      .create = [tls](const CheckSettings& settings) { return make_http_probe(settings, tls); },
  };
}

}  // namespace

bool status_expected(int status, const std::vector<StatusRange>& ranges) {
  for (const auto& range : ranges) {
    if (status >= range.low && status <= range.high) return true;
  }
  return false;
}

std::optional<int> days_until(const std::string& expire_text, std::chrono::system_clock::time_point now) {
  std::tm parts{};
  std::size_t start = expire_text.find_first_not_of(' ');
  if (start == std::string::npos) return std::nullopt;
  const char* end = ::strptime(expire_text.c_str() + start, "%b %d %H:%M:%S %Y GMT", &parts);
  if (end == nullptr) return std::nullopt;
  auto expires = std::chrono::system_clock::from_time_t(::timegm(&parts));
  return static_cast<int>(std::chrono::floor<std::chrono::days>(expires - now).count());
}

void register_http_probe(ProbeRegistry& registry) {
  registry.add(http_type("http", 80, false));
  registry.add(http_type("https", 443, true));
}

}  // namespace cutover::health
