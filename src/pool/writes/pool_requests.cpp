// Pool API bodies: allowed fields, fence options (shared with the records API), the
// change each request makes to a pool's state, and the reply forms.
#include "pool/writes/pool_requests.h"

#include <algorithm>
#include <initializer_list>

#include <fmt/format.h>

#include "store/api/record_json.h"

namespace cutover::pool {
namespace {

using base::ErrorCode;
using base::make_error;
using nlohmann::json;

constexpr std::initializer_list<const char*> kFenceFields = {"expected_version", "plan_version", "allow_empty",
                                                             "dry_run", "who", "what"};

// Checks the body's fields (the fence options plus `extra`) and reads the fence options.
base::Result<PoolWriteRequest> fenced(const std::string& pool, const json& body, std::initializer_list<const char*> extra,
                                      std::string what) {
  for (const auto& item : body.items()) {
    const std::string& key = item.key();  // not a structured binding: clang 14 cannot capture those
    bool known = std::any_of(kFenceFields.begin(), kFenceFields.end(), [&](const char* field) { return key == field; }) ||
                 std::any_of(extra.begin(), extra.end(), [&](const char* field) { return key == field; });
    if (!known) {
      std::string expected;
      for (const char* field : extra) expected += std::string(field) + ", ";
      for (const char* field : kFenceFields) expected += std::string(field) + (field == *std::prev(kFenceFields.end()) ? "" : ", ");
      return make_error(ErrorCode::kInvalidArgument, fmt::format("unknown field '{}' (expected one of: {})", key, expected));
    }
  }
  store::WriteRequest fence;
  fence.who = "api";
  if (auto read = store::fence_from_json(body, fence); !read) return read.error();
  PoolWriteRequest request;
  request.pool = pool;
  request.expected_version = fence.expected_version;
  request.plan_version = fence.plan_version;
  request.allow_empty = fence.allow_empty;
  request.dry_run = fence.dry_run;
  request.who = fence.who;
  request.what = fence.what.empty() ? std::move(what) : fence.what;
  return request;
}

base::Error no_api_pool(const std::string& pool) {
  return make_error(ErrorCode::kNotFound, fmt::format("there is no pool {} made through the API", pool));
}

json preview_json(const PoolPreview& preview) {
  if (!preview.owner) return nullptr;
  json out = {{"name", preview.owner->to_text()}, {"A", preview.a}, {"AAAA", preview.aaaa}};
  if (!preview.cname.empty()) out["CNAME"] = preview.cname;
  return out;
}

}  // namespace

base::Result<PoolWriteRequest> put_pool_request(const std::string& pool, const json& body) {
  auto request = fenced(pool, body, {"pool"}, "put");
  if (!request) return request;
  if (!body.contains("pool") || !body["pool"].is_object()) {
    return make_error(ErrorCode::kInvalidArgument, "pool must be an object of pool settings (the keys of pools.ID in a config file)");
  }
  json settings = body["pool"];
  request->change = [settings](const PoolState& current) -> base::Result<PoolState> {
    PoolState next = current;
    next.settings = settings;
    return next;
  };
  return request;
}

base::Result<PoolWriteRequest> patch_pool_request(const std::string& pool, const json& body) {
  auto request = fenced(pool, body, {"patch"}, "patch");
  if (!request) return request;
  if (!body.contains("patch") || !body["patch"].is_object()) {
    return make_error(ErrorCode::kInvalidArgument, "patch must be an object: a JSON merge patch of the pool settings");
  }
  json patch = body["patch"];
  std::string fields;
  for (const auto& [key, value] : patch.items()) fields += (fields.empty() ? "" : ",") + key;
  if (request->what == "patch") request->what = "patch " + fields;
  request->change = [patch, pool](const PoolState& current) -> base::Result<PoolState> {
    if (!current.settings) return no_api_pool(pool);
    PoolState next = current;
    next.settings->merge_patch(patch);
    return next;
  };
  return request;
}

base::Result<PoolWriteRequest> delete_pool_request(const std::string& pool, const json& body) {
  auto request = fenced(pool, body, {}, "delete");
  if (!request) return request;
  request->change = [pool](const PoolState& current) -> base::Result<PoolState> {
    if (!current.settings) return no_api_pool(pool);
    PoolState next = current;
    next.settings.reset();
    next.overrides.clear();
    return next;
  };
  return request;
}

base::Result<PoolWriteRequest> override_request(const std::string& pool, const std::string& address,
                                                const std::string& action, const json& body) {
  auto value = override_from_text(action);
  if (!value) return value.error();
  auto request = fenced(pool, body, {}, action + " " + address);
  if (!request) return request;
  request->change = [address, value = *value](const PoolState& current) -> base::Result<PoolState> {
    PoolState next = current;
    if (value == health::Override::kNone) {
      next.overrides.erase(address);
    } else {
      next.overrides[address] = value;
    }
    return next;
  };
  return request;
}

base::Result<std::pair<std::uint64_t, PoolWriteRequest>> undo_pool_request(const std::string& pool, const json& body) {
  auto request = fenced(pool, body, {"to"}, "");
  if (!request) return request.error();
  if (!body.contains("to") || !body["to"].is_number_unsigned()) {
    return make_error(ErrorCode::kInvalidArgument, "to must be the version to return to (0: before the pool's first write)");
  }
  return std::make_pair(body["to"].get<std::uint64_t>(), std::move(*request));
}

json pool_result_json(const std::string& pool, const PoolWriteResult& result) {
  json out = {{"pool", pool},
              {"status", store::write_status_text(result.status)},
              {"version", result.version},
              {"plan_version", result.plan_version}};
  if (!result.message.empty()) out["message"] = result.message;
  bool ok = result.status == store::WriteStatus::kApplied || result.status == store::WriteStatus::kNoChange ||
            result.status == store::WriteStatus::kDryRun;
  if (ok) {
    out["before"] = pool_state_json(result.before);
    out["after"] = pool_state_json(result.after);
    out["answers"] = {{"before", preview_json(result.answer_before)}, {"after", preview_json(result.answer_after)}};
  }
  return out;
}

int pool_http_status(const PoolWriteResult& result) {
  if (result.bad_input) return 400;
  return store::http_status(result.status);
}

json pool_view_json(const std::string& pool, const PoolState& state, bool from_config) {
  json out = pool_state_json(state);
  out["pool"] = pool;
  out["source"] = from_config ? "config" : "api";
  out["version"] = state.version;
  out["plan_version"] = state.plan_version;
  return out;
}

}  // namespace cutover::pool
