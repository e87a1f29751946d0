// libFuzzer target: the lab control API (`cutover serve --lab`, lab_requests.h), request by
// request as its routes hand them over. The input is "METHOD PATH\nBODY" lines, applied in
// order to one fresh LabModel (so a zone can be made and then filled). Checks: no exception
// escapes; every reply is 200, 400 or 404 with a JSON object body; a 200 to a mutation
// carries "at_ns".
#include <cstdint>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "fuzz_check.h"
#include "lab/authority/lab_requests.h"

namespace {

using cutover::fuzz::check;

// At most this many requests per input, so one input stays cheap.
constexpr int kMaxRequests = 16;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  cutover::lab::LabModel model([](auto) {});
  std::istringstream in(text);
  std::string line;
  for (int i = 0; i < kMaxRequests && std::getline(in, line, '\n'); ++i) {
    std::size_t space = line.find(' ');
    std::string method = line.substr(0, space);
    std::string path = space == std::string::npos ? "" : line.substr(space + 1);
    std::string body;
    std::getline(in, body, '\n');
    auto reply = cutover::lab::handle_lab_request(model, method, path, body);
    check(reply.status == 200 || reply.status == 400 || reply.status == 404, "a reply status other than 200, 400, 404");
    auto json = nlohmann::json::parse(reply.body, nullptr, false);
    check(!json.is_discarded() && json.is_object(), "a reply body that is not a JSON object");
    if (reply.status == 200 && method != "GET") check(json.contains("at_ns"), "a mutation's reply lacks at_ns");
  }
  return 0;
}
