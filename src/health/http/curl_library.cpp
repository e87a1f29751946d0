// Loading libcurl on demand (see curl_library.h for why it is not linked).
#include "health/http/curl_library.h"

#include <dlfcn.h>

#include <fmt/format.h>

namespace cutover::health {
namespace {

// dlsym returns void*; the cast to the function type is the documented POSIX idiom.
template <typename Function>
bool resolve(void* handle, const char* symbol, Function*& slot) {
  slot = reinterpret_cast<Function*>(::dlsym(handle, symbol));
  return slot != nullptr;
}

}  // namespace

base::Result<CurlLibrary> load_curl_library(const std::string& file_name) {
  // RTLD_LOCAL keeps curl's dependencies (its TLS library among them) out of the global
  // symbol scope, so they cannot interpose on libraries the binary itself links.
  void* handle = ::dlopen(file_name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* reason = ::dlerror();
    return base::make_error(base::ErrorCode::kNotFound, fmt::format("{} not found: install libcurl4 ({})", file_name,
                                                                    reason != nullptr ? reason : "dlopen failed"));
  }
  CurlLibrary library{};
  const char* missing = nullptr;  // the first symbol not found
  auto need = [&](const char* symbol, auto*& slot) {
    if (!resolve(handle, symbol, slot) && missing == nullptr) missing = symbol;
  };
  need("curl_global_init", library.global_init);
  need("curl_easy_init", library.easy_init);
  need("curl_easy_setopt", library.easy_setopt);
  need("curl_easy_perform", library.easy_perform);
  need("curl_easy_getinfo", library.easy_getinfo);
  need("curl_easy_strerror", library.easy_strerror);
  need("curl_easy_cleanup", library.easy_cleanup);
  need("curl_slist_append", library.slist_append);
  need("curl_slist_free_all", library.slist_free_all);
  if (missing != nullptr) {
    ::dlclose(handle);
    return base::make_error(base::ErrorCode::kNotFound, fmt::format("{} lacks {}: install libcurl4", file_name, missing));
  }
  return library;
}

const base::Result<CurlLibrary>& curl_library() {
  // A function-local static: C++ runs the initialiser once even when probe threads race here.
  static const base::Result<CurlLibrary> library = [] {
    base::Result<CurlLibrary> loaded = load_curl_library(kCurlLibraryFile);
    if (!loaded.ok()) return loaded;
    // Once per process, before the first handle exists.
    CURLcode code = loaded->global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
      return base::Result<CurlLibrary>(base::make_error(
          base::ErrorCode::kIo, fmt::format("curl_global_init failed: {}", loaded->easy_strerror(code))));
    }
    return loaded;
  }();
  return library;
}

}  // namespace cutover::health
