// JSON forms of the write API: records as {"name","type","ttl","data"}, edits parsed from
// requests, write results and journal entries rendered for replies. Stateless; thread-safe.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "dns/message.h"
#include "store/journal.h"
#include "store/write_result.h"

namespace cutover::store {

nlohmann::json record_json(const dns::ResourceRecord& record);
std::string record_text(const dns::ResourceRecord& record);
// Presentation-form rdata ("10 mail.example.test.", "\"some text\"") split into tokens,
// quoted strings kept whole; relative names are taken relative to `origin`.
base::Result<dns::Rdata> rdata_from_string(dns::RRType type, const std::string& text, const dns::Name& origin);
// {"op":"set"|"add"|"delete", "name", "type", "ttl", "data":[...]}; a delete without type
// removes the name, without data the RRset. Names are relative to `origin` unless absolute.
base::Result<Edit> edit_from_json(const nlohmann::json& item, const dns::Name& origin);
// Reads expected_version, plan_version, allow_empty, dry_run, who, what into `request`.
base::Status fence_from_json(const nlohmann::json& body, WriteRequest& request);
nlohmann::json result_json(const WriteResult& result);
nlohmann::json entry_json(const JournalEntry& entry);
// The HTTP status for a write outcome (200, 404, 409, 412, 422, 500).
int http_status(WriteStatus status);

}  // namespace cutover::store
