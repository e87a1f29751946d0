// libcurl loaded with dlopen on the first http/https probe instead of linked into the binary:
// linking it maps about 25 more shared libraries (gnutls, krb5, ldap, ssh2, ...) into every
// cutover process, serving or not, for probes most configurations never run. Thread-safe.
#pragma once

#include <curl/curl.h>

#include <string>

#include "base/result.h"

namespace cutover::health {

// The libcurl functions the http probe calls; the curl headers still give the types and
// constants. Plain pointers into a library that stays loaded for the life of the process.
struct CurlLibrary {
  CURLcode (*global_init)(long flags);
  CURL* (*easy_init)();
  CURLcode (*easy_setopt)(CURL* handle, CURLoption option, ...);
  CURLcode (*easy_perform)(CURL* handle);
  CURLcode (*easy_getinfo)(CURL* handle, CURLINFO info, ...);
  const char* (*easy_strerror)(CURLcode code);
  void (*easy_cleanup)(CURL* handle);
  curl_slist* (*slist_append)(curl_slist* list, const char* text);
  void (*slist_free_all)(curl_slist* list);
};

inline constexpr const char* kCurlLibraryFile = "libcurl.so.4";

// The process's libcurl: loaded and globally initialised by the first call (concurrent first
// calls wait for it), the same table or the same error afterwards. Never unloaded.
const base::Result<CurlLibrary>& curl_library();

// Loads `file_name` and resolves the table without calling anything in it; curl_library()'s
// worker, a parameter so tests can name a missing or wrong library. On success the library
// stays loaded; on failure nothing is left loaded and the error says what to install.
base::Result<CurlLibrary> load_curl_library(const std::string& file_name);

}  // namespace cutover::health
