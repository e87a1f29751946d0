// curl_library: the system libcurl loads and every function in the table works; a missing or
// wrong library is an error naming the package; and the binary does not link libcurl itself.
#include "health/http/curl_library.h"

#include <elf.h>
#include <link.h>

#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

extern ElfW(Dyn) _DYNAMIC[];  // NOLINT: the linker's name for this program's dynamic section

namespace cutover::health {
namespace {

TEST(CurlLibrary, LoadsOnceAndEveryResolvedFunctionWorks) {
  const base::Result<CurlLibrary>& library = curl_library();
  ASSERT_TRUE(library.ok()) << library.error().message;
  EXPECT_EQ(&curl_library(), &library);
  const CurlLibrary& curl = *library;

  EXPECT_STREQ(curl.easy_strerror(CURLE_COULDNT_CONNECT), "Couldn't connect to server");
  curl_slist* list = curl.slist_append(nullptr, "first");
  list = curl.slist_append(list, "second");
  ASSERT_NE(list, nullptr);
  ASSERT_NE(list->next, nullptr);
  EXPECT_STREQ(list->next->data, "second");
  curl.slist_free_all(list);

  CURL* handle = curl.easy_init();
  ASSERT_NE(handle, nullptr);
  EXPECT_EQ(curl.easy_setopt(handle, CURLOPT_URL, "http://127.0.0.1:1/"), CURLE_OK);
  EXPECT_EQ(curl.easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, 2000L), CURLE_OK);
  EXPECT_EQ(curl.easy_setopt(handle, CURLOPT_PROXY, ""), CURLE_OK);
  // Port 1 on loopback has no listener: refused at once, no timing involved.
  EXPECT_EQ(curl.easy_perform(handle), CURLE_COULDNT_CONNECT);
  long status = -1;
  EXPECT_EQ(curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status), CURLE_OK);
  EXPECT_EQ(status, 0);
  curl.easy_cleanup(handle);
}

TEST(CurlLibrary, MissingLibraryIsAnErrorNamingThePackage) {
  base::Result<CurlLibrary> library = load_curl_library("libcurl-absent-for-test.so.4");
  ASSERT_FALSE(library.ok());
  EXPECT_EQ(library.error().code, base::ErrorCode::kNotFound);
  EXPECT_EQ(library.error().message.rfind("libcurl-absent-for-test.so.4 not found: install libcurl4 (", 0), 0u)
      << library.error().message;
}

TEST(CurlLibrary, LibraryWithoutCurlFunctionsIsAnError) {
  base::Result<CurlLibrary> library = load_curl_library("libm.so.6");
  ASSERT_FALSE(library.ok());
  EXPECT_EQ(library.error().message, "libm.so.6 lacks curl_global_init: install libcurl4");
}

// The libraries this test binary names as link-time dependencies (DT_NEEDED); ld.so has
// already relocated the string table's address in the dynamic section.
std::vector<std::string> needed_libraries() {
  const char* strings = nullptr;
  for (const ElfW(Dyn)* entry = _DYNAMIC; entry->d_tag != DT_NULL; ++entry) {
    if (entry->d_tag == DT_STRTAB) strings = reinterpret_cast<const char*>(entry->d_un.d_ptr);
  }
  std::vector<std::string> names;
  for (const ElfW(Dyn)* entry = _DYNAMIC; entry->d_tag != DT_NULL && strings != nullptr; ++entry) {
    if (entry->d_tag == DT_NEEDED) names.emplace_back(strings + entry->d_un.d_val);
  }
  return names;
}

// Linking libcurl again (e.g. CURL::libcurl back in the health module's DEPENDS) would map
// its ~25 dependencies into every cutover process, probes or not.
TEST(CurlLibrary, IsNotALinkTimeDependency) {
  std::vector<std::string> needed = needed_libraries();
  ASSERT_FALSE(needed.empty());
  EXPECT_NE(std::find(needed.begin(), needed.end(), "libc.so.6"), needed.end());
  for (const std::string& name : needed) EXPECT_EQ(name.find("libcurl"), std::string::npos) << name;
}

}  // namespace
}  // namespace cutover::health
