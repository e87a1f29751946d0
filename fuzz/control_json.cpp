// libFuzzer target: the control API's request bodies (docs/writes.md, docs/pools.md), read as
// the routes read them: the body must be a JSON object; then the records API (fence options,
// each of "edits" through edit_from_json, "to" for undo) and every pool API request (PUT, PATCH,
// DELETE, drain and undo) with their change applied and the resulting pool settings read as
// pools.ID of a config file. Checks: no exception escapes but ConfigError where the server
// catches it; an accepted edit's records, printed as the API prints them (record_json), are
// read back to the same records; a pool state survives its journal form.
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "config/config.h"
#include "config/pool_config.h"
#include "fuzz_check.h"
#include "writes/pool_requests.h"
#include "writes/pool_state.h"
#include "store/api/record_json.h"

namespace {

using cutover::fuzz::check;
using nlohmann::json;
namespace dns = cutover::dns;
namespace store = cutover::store;
namespace writes = cutover::writes;

const cutover::config::Config& server_config() {
  static const cutover::config::Config config = cutover::config::parse_config(
      "zones:\n"
      "  - origin: example.test.\n"
      "    file: example.test.zone\n"
      "  - origin: pool.test.\n"
      "    file: pool.test.zone\n"
      "writes:\n"
      "  journal: fuzz.journal\n",
      "fuzz.yaml", "/nonexistent/cutover-fuzz");
  return config;
}

// What POST /zones/ZONE/records does with the body, short of the write.
void records_body(const json& body) {
  static const dns::Name origin = *dns::Name::from_text("example.test.");
  store::WriteRequest write;
  if (!store::fence_from_json(body, write)) return;
  if (!body.contains("edits") || !body["edits"].is_array()) return;
  for (const auto& item : body["edits"]) {
    auto edit = store::edit_from_json(item, origin);
    if (!edit) continue;
    for (const dns::Rdata& rdata : edit->rdatas) {
      dns::ResourceRecord record{edit->owner, edit->type, dns::RRClass::IN, edit->ttl, rdata};
      json printed = store::record_json(record);
      json again = {{"op", "add"}, {"name", printed["name"]}, {"type", printed["type"]},
                    {"ttl", printed["ttl"]}, {"data", printed["data"]}};
      auto reread = store::edit_from_json(again, origin);
      check(reread.ok(), "a record as the API prints it is refused as an edit");
      check(reread->owner == edit->owner && reread->type == edit->type && reread->ttl == edit->ttl &&
                reread->rdatas.size() == 1 && reread->rdatas[0] == rdata,
            "a record as the API prints it reads back to another record");
      (void)store::record_text(record);
    }
  }
}

// Reads the settings a pool request leads to as the pool writer does (config::read_pool).
void pool_settings(const std::string& pool, const writes::PoolState& state) {
  json journaled = writes::pool_state_json(state);
  auto reread = writes::pool_state_from_json(json::parse(journaled.dump()));
  check(reread.ok() && reread->same_content(state), "a pool state does not survive its journal form");
  if (!state.settings) return;
  try {
    (void)cutover::config::read_pool(pool, state.settings->dump(), "body", server_config());
  } catch (const cutover::config::ConfigError&) {
  }
}

void pool_bodies(const json& body) {
  const std::string pool = "web";
  writes::PoolState existing;
  existing.version = 1;
  existing.settings = json{{"name", "web.pool.test."},
                           {"ttl", 30},
                           {"check", {{"type", "tcp"}, {"interval", "1s"}}},
                           {"endpoints", json::array({{{"address", "192.0.2.1"}, {"port", 80}}})}};
  auto run = [&](const cutover::base::Result<writes::PoolWriteRequest>& request, const writes::PoolState& current) {
    if (!request) return;
    auto next = request->change(current);
    if (next) pool_settings(pool, *next);
  };
  run(writes::put_pool_request(pool, body), writes::PoolState{});
  run(writes::patch_pool_request(pool, body), existing);
  run(writes::delete_pool_request(pool, body), existing);
  run(writes::override_request(pool, "192.0.2.1", "drain", body), existing);
  (void)writes::undo_pool_request(pool, body);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  json body = json::parse(data, data + size, nullptr, false);
  if (body.is_discarded() || !body.is_object()) return 0;  // 400 "the body must be a JSON object"
  records_body(body);
  pool_bodies(body);
  return 0;
}
