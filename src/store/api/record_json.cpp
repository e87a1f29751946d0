// JSON conversions for the write API.
#include "store/api/record_json.h"

#include <fmt/format.h>

namespace cutover::store {

using base::ErrorCode;
using base::make_error;
using nlohmann::json;

namespace {

base::Result<dns::Name> name_in(const std::string& text, const dns::Name& origin) {
  if (text == "@") return origin;
  auto name = dns::Name::from_text(text, &origin);
  if (!name) return make_error(ErrorCode::kInvalidArgument, "bad name '" + text + "': " + name.error().message);
  return *name;
}

std::vector<dns::TextToken> tokenize(const std::string& text) {
  std::vector<dns::TextToken> tokens;
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == ' ' || text[i] == '\t') {
      ++i;
      continue;
    }
    dns::TextToken token;
    token.line = 1;
    token.column = static_cast<std::uint32_t>(i + 1);
    if (text[i] == '"') {
      token.quoted = true;
      ++i;
      while (i < text.size() && text[i] != '"') {
        if (text[i] == '\\' && i + 1 < text.size()) token.text.push_back(text[i++]);
        token.text.push_back(text[i++]);
      }
      ++i;  // closing quote
    } else {
      while (i < text.size() && text[i] != ' ' && text[i] != '\t') token.text.push_back(text[i++]);
    }
    tokens.push_back(std::move(token));
  }
  return tokens;
}

}  // namespace

json record_json(const dns::ResourceRecord& record) {
  return {{"name", record.owner.to_text()},
          {"type", dns::type_to_text(record.type)},
          {"ttl", record.ttl},
          {"data", dns::rdata_to_text(record.type, record.rdata)}};
}

std::string record_text(const dns::ResourceRecord& record) {
  return fmt::format("{} {} {} {}", record.owner.to_text(), record.ttl, dns::type_to_text(record.type),
                     dns::rdata_to_text(record.type, record.rdata));
}

base::Result<dns::Rdata> rdata_from_string(dns::RRType type, const std::string& text, const dns::Name& origin) {
  auto tokens = tokenize(text);
  auto rdata = dns::rdata_from_text(type, tokens, origin);
  if (!rdata) {
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("bad {} data '{}': {}", dns::type_to_text(type), text, rdata.error().message));
  }
  return *rdata;
}

base::Result<Edit> edit_from_json(const json& item, const dns::Name& origin) {
  if (!item.is_object() || !item.contains("op") || !item["op"].is_string() || !item.contains("name") ||
      !item["name"].is_string()) {
    return make_error(ErrorCode::kInvalidArgument, "each edit needs a string op and name");
  }
  Edit edit;
  auto owner = name_in(item["name"].get<std::string>(), origin);
  if (!owner) return owner.error();
  edit.owner = *owner;
  std::string op = item["op"].get<std::string>();
  bool has_type = item.contains("type");
  if (has_type) {
    if (!item["type"].is_string()) return make_error(ErrorCode::kInvalidArgument, "type must be a string");
    auto type = dns::type_from_text(item["type"].get<std::string>());
    if (!type) return make_error(ErrorCode::kInvalidArgument, "unknown type " + item["type"].get<std::string>());
    edit.type = *type;
  }
  if (item.contains("ttl")) {
    if (!item["ttl"].is_number_unsigned() || item["ttl"].get<std::uint64_t>() > 0x7FFFFFFF) {
      return make_error(ErrorCode::kInvalidArgument, "ttl must be a whole number up to 2147483647");
    }
    edit.ttl = item["ttl"].get<std::uint32_t>();
  } else {
    edit.ttl = 300;
  }
  if (item.contains("data")) {
    json data = item["data"].is_string() ? json::array({item["data"]}) : item["data"];
    if (!data.is_array()) return make_error(ErrorCode::kInvalidArgument, "data must be a string or a list of strings");
    for (const auto& value : data) {
      if (!value.is_string() || !has_type) return make_error(ErrorCode::kInvalidArgument, "data needs a type and strings");
      auto rdata = rdata_from_string(edit.type, value.get<std::string>(), origin);
      if (!rdata) return rdata.error();
      edit.rdatas.push_back(std::move(*rdata));
    }
  }
  if (op == "set" || op == "add") {
    if (!has_type) return make_error(ErrorCode::kInvalidArgument, op + " needs a type");
    edit.op = op == "set" ? Edit::Op::kReplaceRRset : Edit::Op::kAddRecord;
  } else if (op == "delete") {
    edit.op = !has_type ? Edit::Op::kDeleteName
                        : (edit.rdatas.empty() ? Edit::Op::kDeleteRRset : Edit::Op::kDeleteRecord);
  } else {
    return make_error(ErrorCode::kInvalidArgument, "op must be set, add or delete, not " + op);
  }
  return edit;
}

base::Status fence_from_json(const json& body, WriteRequest& request) {
  auto number = [&](const char* key, std::optional<std::uint64_t>& out) -> base::Status {
    if (!body.contains(key) || body[key].is_null()) return {};
    if (!body[key].is_number_unsigned()) return make_error(ErrorCode::kInvalidArgument, std::string(key) + " must be a whole number");
    out = body[key].get<std::uint64_t>();
    return {};
  };
  auto flag = [&](const char* key, bool& out) -> base::Status {
    if (!body.contains(key)) return {};
    if (!body[key].is_boolean()) return make_error(ErrorCode::kInvalidArgument, std::string(key) + " must be true or false");
    out = body[key].get<bool>();
    return {};
  };
  for (auto status : {number("expected_version", request.expected_version), number("plan_version", request.plan_version),
                      flag("allow_empty", request.allow_empty), flag("dry_run", request.dry_run)}) {
    if (!status) return status;
  }
  if (body.contains("who") && body["who"].is_string()) request.who = body["who"].get<std::string>();
  if (body.contains("what") && body["what"].is_string()) request.what = body["what"].get<std::string>();
  return {};
}

json result_json(const WriteResult& result) {
  json out = {{"status", write_status_text(result.status)},
              {"version", result.version},
              {"plan_version", result.plan_version},
              {"serial", result.serial}};
  if (!result.message.empty()) out["message"] = result.message;
  json removed = json::array();
  json added = json::array();
  for (const auto& record : result.delta.removed) removed.push_back(record_text(record));
  for (const auto& record : result.delta.added) added.push_back(record_text(record));
  if (result.ok()) {
    out["removed"] = removed;
    out["added"] = added;
    out["cache_tail"] = {{"seconds", result.cache_tail.seconds()},
                         {"longest_ttl", result.cache_tail.longest_ttl},
                         {"negative_ttl", result.cache_tail.negative_ttl},
                         {"recreated", result.cache_tail.recreated}};
  }
  if (result.status == WriteStatus::kDryRun) {
    json answers = json::array();
    for (const auto& change : result.answers) {
      answers.push_back({{"name", change.name.to_text()},
                         {"type", dns::type_to_text(change.type)},
                         {"before", change.before},
                         {"after", change.after}});
    }
    out["answers"] = answers;
  }
  return out;
}

json entry_json(const JournalEntry& entry) {
  json removed = json::array();
  json added = json::array();
  for (const auto& record : entry.delta.removed) removed.push_back(record_text(record));
  for (const auto& record : entry.delta.added) added.push_back(record_text(record));
  return {{"version", entry.version}, {"serial", entry.serial},  {"plan_version", entry.plan_version},
          {"at_ms", entry.at_ms},     {"who", entry.who},        {"what", entry.what},
          {"removed", removed},       {"added", added}};
}

int http_status(WriteStatus status) {
  switch (status) {
    case WriteStatus::kApplied:
    case WriteStatus::kNoChange:
    case WriteStatus::kDryRun: return 200;
    case WriteStatus::kNotFound: return 404;
    case WriteStatus::kConflict:
    case WriteStatus::kStale: return 409;
    case WriteStatus::kPrecondition: return 412;
    case WriteStatus::kFloor:
    case WriteStatus::kInvalid: return 422;
    case WriteStatus::kIo: return 500;
  }
  return 500;
}

}  // namespace cutover::store
