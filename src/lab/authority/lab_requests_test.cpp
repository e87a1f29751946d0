// Unit tests: the lab API's requests without HTTP: routing by method and path, the replies of
// mutations, and the 400/404 of bad paths, bodies and fields.
#include "lab/authority/lab_requests.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace cutover::lab {
namespace {

class LabRequestsTest : public ::testing::Test {
 protected:
  LabReply request(const std::string& method, const std::string& path, const std::string& body = "") {
    return handle_lab_request(model_, method, path, body);
  }
  int published_ = 0;
  LabModel model_{[this](auto) { ++published_; }};
};

TEST_F(LabRequestsTest, MutationsAnswerTheTimeTheyBecameVisible) {
  LabReply zone = request("PUT", "/lab/zones/cutover-lab.", R"({"soa_ttl":30,"minimum":6})");
  ASSERT_EQ(zone.status, 200) << zone.body;
  EXPECT_TRUE(nlohmann::json::parse(zone.body).contains("at_ns"));
  LabReply rrset = request("PUT", "/lab/rrsets/www.cutover-lab./A", R"({"ttl":5,"data":["192.0.2.1"]})");
  ASSERT_EQ(rrset.status, 200) << rrset.body;
  EXPECT_EQ(request("PUT", "/lab/outage/name/www.cutover-lab.", R"({"mode":"drop"})").status, 200);
  EXPECT_EQ(request("DELETE", "/lab/rrsets/www.cutover-lab./A").status, 200);
  EXPECT_EQ(request("DELETE", "/lab/zones/cutover-lab.").status, 200);
  EXPECT_GE(published_, 4);
  EXPECT_TRUE(nlohmann::json::parse(request("GET", "/lab/counts").body).contains("counts"));
}

TEST_F(LabRequestsTest, BadPathsBodiesAndFieldsAre400AndUnknownOnes404) {
  EXPECT_EQ(request("PUT", "/lab/zones/a.test.", "[1]").status, 400);                       // not an object
  EXPECT_EQ(request("PUT", "/lab/zones/a.test.", R"({"negative":"never"})").status, 400);
  EXPECT_EQ(request("PUT", "/lab/rrsets/www.a.test./NOTATYPE", "{}").status, 400);
  EXPECT_EQ(request("PUT", "/lab/outage/zone/a.test.", R"({"mode":"sometimes"})").status, 400);
  LabReply missing_field = request("PUT", "/lab/rrsets/www.a.test./A", R"({"data":[]})");
  EXPECT_EQ(missing_field.status, 400);
  EXPECT_NE(missing_field.body.find("ttl"), std::string::npos) << missing_field.body;
  EXPECT_EQ(request("PUT", "/lab/rrsets/www.nowhere.test./A", R"({"ttl":5,"data":["192.0.2.1"]})").status, 404);
  EXPECT_EQ(request("POST", "/lab/zones/a.test.", "{}").status, 404);  // no such route
  EXPECT_EQ(request("GET", "/lab/zones").status, 404);
}

TEST_F(LabRequestsTest, TtlsMustBeWholeNumbersThatFitIn32Bits) {
  // Found by fuzz/lab_api: 2.2e55 as soa_ttl was converted to uint32_t (undefined behaviour).
  EXPECT_EQ(request("PUT", "/lab/zones/a.test.", R"({"soa_ttl":2.2e55})").status, 400);
  EXPECT_EQ(request("PUT", "/lab/zones/a.test.", R"({"minimum":-1})").status, 400);
  EXPECT_EQ(request("PUT", "/lab/zones/a.test.", R"({"soa_ttl":4294967296})").status, 400);
  EXPECT_EQ(request("PUT", "/lab/zones/a.test.", R"({"soa_ttl":1.5})").status, 400);
  ASSERT_EQ(request("PUT", "/lab/zones/a.test.", R"({"soa_ttl":4294967295,"minimum":0})").status, 200);
  LabReply ttl = request("PUT", "/lab/rrsets/www.a.test./A", R"({"ttl":"5","data":["192.0.2.1"]})");
  EXPECT_EQ(ttl.status, 400);
  EXPECT_NE(ttl.body.find("ttl must be a whole number"), std::string::npos) << ttl.body;
  EXPECT_EQ(request("PUT", "/lab/rrsets/www.a.test./A", R"({"ttl":5,"data":["192.0.2.1"]})").status, 200);
}

TEST_F(LabRequestsTest, BytesThatAreNotUtf8InAPathOrBodyGetA400NotAnException) {
  // Found by fuzz/lab_api: the error quoted the name, and the JSON dump of it threw.
  ASSERT_EQ(request("PUT", "/lab/zones/cutover-lab.", "{}").status, 200);
  LabReply reply = request("PUT", "/lab/outage/name/www.cutover-lab.\xf6\x84\x9d", R"({"mode":"\xf6"})");
  EXPECT_EQ(reply.status, 400);
  EXPECT_FALSE(nlohmann::json::parse(reply.body, nullptr, false).is_discarded()) << reply.body;
  LabReply name = request("PUT", "/lab/rrsets/\xff.cutover-lab./A", R"({"ttl":5,"data":["192.0.2.1"]})");
  EXPECT_EQ(name.status, 200) << name.body;  // a label may hold any byte
  EXPECT_FALSE(nlohmann::json::parse(request("GET", "/lab/counts").body, nullptr, false).is_discarded());
}

}  // namespace
}  // namespace cutover::lab
