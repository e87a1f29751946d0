// The options of one probe type, and the small reading interface through which a probe
// type parses its own keys of a check mapping (gdnsd gives each plugin its config node;
// CoreDNS's setup.go does the same). The config reader implements OptionReader; probe
// types never see YAML. Options are immutable once parsed and shared between copies of
// a CheckSettings, so they are safe to read from any thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace cutover::health {

// Base of every probe type's options; each type downcasts to its own struct.
struct ProbeOptions {
  virtual ~ProbeOptions() = default;
};

// The values of one mapping (a check, or a pool for the shape's keys). Every accessor
// either returns a valid value or throws through fail(), naming the key's place in the
// input exactly ("FILE:LINE:COL: pools.app.check.path: ...").
class OptionReader {
 public:
  virtual ~OptionReader() = default;

  virtual std::string scalar(const std::string& key) const = 0;
  virtual bool boolean(const std::string& key) const = 0;
  // A whole number in [min, max].
  virtual std::size_t number(const std::string& key, std::size_t min, std::size_t max) const = 0;
  std::size_t count(const std::string& key, std::size_t max) const { return number(key, 1, max); }
  // A positive duration like 10s or 500ms.
  virtual std::chrono::milliseconds duration(const std::string& key) const = 0;
  // A file path; a relative one is resolved against the config file's directory.
  virtual std::string file_path(const std::string& key) const = 0;
  // A mapping of name: single value, in input order.
  virtual std::vector<std::pair<std::string, std::string>> string_map(const std::string& key,
                                                                      const std::string& what) const = 0;
  [[noreturn]] virtual void fail(const std::string& key, const std::string& message) const = 0;
};

// Reads one key of a probe type's options into `options` (the key is one the type
// declared). Throws through reader.fail() on a bad value.
template <typename Options>
using OptionRead = std::function<void(Options& options, const std::string& key, const OptionReader& reader)>;

// Parses one check mapping's keys of one probe type, in input order, over the options
// the mapping inherits (the pool's check, for an endpoint's). Used by one thread.
class OptionsParser {
 public:
  virtual ~OptionsParser() = default;
  virtual void read(const std::string& key, const OptionReader& reader) = 0;
  virtual std::shared_ptr<const ProbeOptions> finish() = 0;
};

// `inherited` may be null or another type's options: then parsing starts from defaults.
using OptionsParserFactory = std::function<std::unique_ptr<OptionsParser>(const ProbeOptions* inherited)>;

// The parser of an Options struct (default-constructible, copyable) read key by key.
template <typename Options>
OptionsParserFactory options_parser(OptionRead<Options> read) {
  class Parser : public OptionsParser {
   public:
    Parser(const ProbeOptions* inherited, OptionRead<Options> read) : read_(std::move(read)) {
      if (const auto* same = dynamic_cast<const Options*>(inherited)) options_ = *same;
    }
    void read(const std::string& key, const OptionReader& reader) override { read_(options_, key, reader); }
    std::shared_ptr<const ProbeOptions> finish() override { return std::make_shared<const Options>(std::move(options_)); }

   private:
    Options options_;
    OptionRead<Options> read_;
  };
  return [read = std::move(read)](const ProbeOptions* inherited) -> std::unique_ptr<OptionsParser> {
    return std::make_unique<Parser>(inherited, read);
  };
}

}  // namespace cutover::health
