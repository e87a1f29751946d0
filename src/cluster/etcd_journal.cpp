// EtcdJournal: marks and entries as etcd keys; appends as one compare-and-set transaction.
#include "cluster/etcd_journal.h"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "dns/base_encoding.h"
#include "store/sqlite_journal.h"

namespace cutover::cluster {
namespace {

std::string entries_prefix(const std::string& prefix, const std::string& stream) {
  return journal_prefix(prefix) + "entries/" + stream + "/";
}

std::string mark_json(const store::StreamMark& mark) {
  return nlohmann::json{{"version", mark.version}, {"plan_version", mark.plan_version}}.dump();
}

base::Result<store::StreamMark> parse_mark(const std::string& key, const std::string& value) {
  auto json = nlohmann::json::parse(value, nullptr, false);
  if (!json.is_object() || !json.contains("version") || !json["version"].is_number_unsigned()) {
    return base::make_error(base::ErrorCode::kMalformed, fmt::format("etcd key {}: not a journal mark", key));
  }
  return store::StreamMark{json["version"].get<std::uint64_t>(), json.value("plan_version", std::uint64_t{0})};
}

std::string entry_json(const store::StoredEntry& entry) {
  return nlohmann::json{{"version", entry.version},
                        {"plan_version", entry.plan_version},
                        {"at_ms", entry.at_ms},
                        {"who", entry.who},
                        {"what", entry.what},
                        {"body", dns::base64_encode(entry.body)},
                        {"sha256", dns::hex_encode(store::entry_checksum(entry))}}
      .dump();
}

base::Result<store::StoredEntry> parse_entry(const std::string& stream, const std::string& key,
                                             const std::string& value) {
  auto bad = [&](std::string_view what) {
    return base::make_error(base::ErrorCode::kMalformed, fmt::format("journal entry {}: {}", key, what));
  };
  auto json = nlohmann::json::parse(value, nullptr, false);
  if (!json.is_object()) return bad("not a JSON object");
  store::StoredEntry entry;
  entry.stream = stream;
  try {
    entry.version = json.at("version").get<std::uint64_t>();
    entry.plan_version = json.at("plan_version").get<std::uint64_t>();
    entry.at_ms = json.at("at_ms").get<std::int64_t>();
    entry.who = json.at("who").get<std::string>();
    entry.what = json.at("what").get<std::string>();
    if (!dns::base64_decode(json.at("body").get<std::string>(), entry.body)) return bad("its body is not base64");
    if (json.at("sha256").get<std::string>() != dns::hex_encode(store::entry_checksum(entry))) {
      return bad("checksum mismatch (the key was changed outside cutover)");
    }
  } catch (const nlohmann::json::exception& e) {
    return bad(e.what());
  }
  return entry;
}

}  // namespace

std::string journal_prefix(const std::string& prefix) { return prefix + "journal/"; }

std::string journal_mark_key(const std::string& prefix, const std::string& stream) {
  return journal_prefix(prefix) + "marks/" + stream;
}

std::string journal_entry_key(const std::string& prefix, const std::string& stream, std::uint64_t version) {
  return entries_prefix(prefix, stream) + fmt::format("{:020}", version);
}

std::string stream_of_mark_key(const std::string& prefix, const std::string& key) {
  const std::string marks = journal_prefix(prefix) + "marks/";
  return key.starts_with(marks) ? key.substr(marks.size()) : std::string();
}

EtcdJournal::EtcdJournal(const ClusterConfig& config, std::chrono::milliseconds timeout)
    : prefix_(config.prefix), etcd_(config.etcd, timeout) {
  std::string urls;
  for (const auto& member : config.etcd) urls += (urls.empty() ? "" : ",") + member.url();
  where_ = fmt::format("etcd {} at {}", journal_prefix(prefix_), urls);
}

void EtcdJournal::remember(const std::string& stream, const store::StreamMark& mark, std::int64_t revision) {
  std::int64_t seen = revision_.load();
  while (revision > seen && !revision_.compare_exchange_weak(seen, revision)) {
  }
  std::lock_guard lock(mutex_);
  known_[stream] = mark;
}

base::Result<EtcdJournal::ReadMark> EtcdJournal::read_mark(const std::string& stream) {
  const std::string key = journal_mark_key(prefix_, stream);
  auto range = etcd_.range(key);
  if (!range) return range.error();
  ReadMark out;
  if (!range->kvs.empty()) {
    auto mark = parse_mark(key, range->kvs.front().value);
    if (!mark) return mark.error();
    out.mark = *mark;
    out.mod_revision = range->kvs.front().mod_revision;
  }
  remember(stream, out.mark, range->revision);
  return out;
}

base::Status EtcdJournal::append(const store::StoredEntry& entry) {
  auto current = read_mark(entry.stream);
  if (!current) return base::make_error(base::ErrorCode::kIo, current.error().message);
  if (current->mark.version + 1 != entry.version) {
    return base::make_error(base::ErrorCode::kInvalidArgument,
                            fmt::format("{} is at version {}, not {}", entry.stream, current->mark.version,
                                        entry.version - 1));
  }
  store::StreamMark next{entry.version, std::max(current->mark.plan_version, entry.plan_version)};
  const std::string mark_key = journal_mark_key(prefix_, entry.stream);
  const std::string entry_key = journal_entry_key(prefix_, entry.stream, entry.version);
  const std::string value = entry_json(entry);
  TxnCompare fence = current->mod_revision == 0
                         ? TxnCompare{mark_key, TxnCompare::Target::kCreateRevision, 0}
                         : TxnCompare{mark_key, TxnCompare::Target::kModRevision, current->mod_revision};
  auto done = etcd_.txn({fence}, {{mark_key, mark_json(next)}, {entry_key, value}});
  if (done && done->succeeded) {
    remember(entry.stream, next, done->revision);
    return {};
  }
  // The comparison failed, or no reply came back: a transaction that was applied on a
  // member whose reply was lost, and retried on the next, fails its comparison. The entry
  // key says which it was.
  auto written = etcd_.range(entry_key);
  if (written && !written->kvs.empty() && written->kvs.front().value == value) {
    remember(entry.stream, next, written->revision);
    return {};
  }
  if (!done) {
    if (!written) {
      return base::make_error(base::ErrorCode::kTimeout,
                              fmt::format("etcd did not confirm the write ({}); read the version before "
                                          "writing again",
                                          done.error().message));
    }
    return base::make_error(base::ErrorCode::kIo, done.error().message);
  }
  auto now = read_mark(entry.stream);
  return base::make_error(base::ErrorCode::kInvalidArgument,
                          fmt::format("{} moved to version {} first", entry.stream,
                                      now ? now->mark.version : current->mark.version + 1));
}

base::Result<store::StreamRead> EtcdJournal::read(const std::string& stream, std::uint64_t after, store::TornTail) {
  const std::string prefix = entries_prefix(prefix_, stream);
  auto range = etcd_.range(journal_entry_key(prefix_, stream, after + 1), prefix_end(prefix));
  if (!range) return range.error();
  store::StreamRead out;
  for (const auto& kv : range->kvs) {
    auto entry = parse_entry(stream, kv.key, kv.value);
    if (!entry) return entry.error();
    out.entries.push_back(std::move(*entry));
  }
  // Keys sort as their zero-padded versions do.
  return out;
}

store::StreamMark EtcdJournal::mark(const std::string& stream) {
  if (auto read = read_mark(stream)) return read->mark;
  std::lock_guard lock(mutex_);
  auto it = known_.find(stream);
  return it == known_.end() ? store::StreamMark{} : it->second;
}

base::Result<std::vector<std::string>> EtcdJournal::streams(std::string_view prefix) {
  const std::string marks = journal_mark_key(prefix_, std::string(prefix));
  auto range = etcd_.range_prefix(marks);
  if (!range) return range.error();
  std::vector<std::string> out;
  for (const auto& kv : range->kvs) {
    std::string stream = stream_of_mark_key(prefix_, kv.key);
    auto mark = parse_mark(kv.key, kv.value);
    if (stream.empty() || !mark) continue;
    remember(stream, *mark, range->revision);
    out.push_back(std::move(stream));
  }
  std::sort(out.begin(), out.end());
  return out;
}

base::Status EtcdJournal::compact(const std::string& stream, std::uint64_t version) {
  auto deleted = etcd_.delete_range(entries_prefix(prefix_, stream), journal_entry_key(prefix_, stream, version + 1));
  if (!deleted) return deleted.error();
  return {};
}

}  // namespace cutover::cluster
