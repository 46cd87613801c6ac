// lm_write_command.cpp: `lm generate`, `lm next` and `lm cache` (lm_write_command.h).
#include "lm_write_command.h"

#include "lm_args.h"

#include "engine/core/error.h"
#include "engine/core/lm/decode/cache_race.h"
#include "engine/core/lm/decode/kv_memory.h"
#include "engine/core/lm/decode/writer.h"

#include <algorithm>
#include <numeric>

namespace neuralpath::cli {

using namespace neuralpath::lm;

namespace {

const std::string& prompt_arg(const std::map<std::string, std::string>& f, const std::string& command) {
  const std::string& prompt = required(f, "--prompt", command);
  if (prompt.size() > 65536) throw InputError(command + ": --prompt is longer than 65536 bytes");
  return prompt;
}

SamplingSettings sampling_args(const std::map<std::string, std::string>& f) {
  SamplingSettings s;
  s.temperature = real_number(f, "--temperature", s.temperature, 0.0f, 100.0f);
  s.top_k = static_cast<int>(whole_number(f, "--top-k", s.top_k, 0, 65536));
  s.top_p = real_number(f, "--top-p", s.top_p, 0.0f, 1.0f);
  if (!(s.top_p > 0.0f)) throw InputError("--top-p must be above 0 and at most 1 (got '" + f.at("--top-p") + "')");
  return s;
}

std::uint64_t seed_arg(const std::map<std::string, std::string>& f) {
  return static_cast<std::uint64_t>(whole_number(f, "--seed", 1, 0, 1LL << 53));
}

// The `top` most likely tokens of p, most likely first (ties by id), with their probabilities.
Json top_tokens(const BpeTokenizer& tokenizer, const std::vector<float>& p, int top) {
  std::vector<int> order(p.size());
  std::iota(order.begin(), order.end(), 0);
  const std::size_t n = std::min(order.size(), static_cast<std::size_t>(top));
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n), order.end(), [&](int a, int b) {
    return p[static_cast<std::size_t>(a)] > p[static_cast<std::size_t>(b)] ||
           (p[static_cast<std::size_t>(a)] == p[static_cast<std::size_t>(b)] && a < b);
  });
  Json out = Json::array();
  for (std::size_t i = 0; i < n && p[static_cast<std::size_t>(order[i])] > 0.0f; ++i) {
    Json token = token_list(tokenizer, {order[i]})[0];
    token["p"] = number_json(p[static_cast<std::size_t>(order[i])]);
    out.push_back(std::move(token));
  }
  return out;
}

}  // namespace

int lm_generate(const std::vector<std::string>& args, std::string& out) {
  const auto f =
      parse_flags(args, {"--model", "--prompt", "--tokens", "--temperature", "--top-k", "--top-p", "--seed", "--cache"},
                  "lm generate");
  const LmModel model = model_arg(required(f, "--model", "lm generate"));
  const std::string& prompt = prompt_arg(f, "lm generate");
  WriterOptions o;
  o.tokens = static_cast<int>(whole_number(f, "--tokens", o.tokens, 0, 4096));
  o.sampling = sampling_args(f);
  o.seed = seed_arg(f);
  if (f.count("--cache")) {
    const std::string& c = f.at("--cache");
    if (c != "on" && c != "off") throw InputError("--cache must be on or off (got '" + c + "')");
    o.use_cache = c == "on";
  }
  TextWriter writer(model, prompt, o);
  while (writer.step()) {
  }
  out = dump(Json{{"text", writer.text()}, {"tokens", token_list(model.tokenizer, writer.written())}}) + "\n";
  return 0;
}

int lm_next(const std::vector<std::string>& args, std::string& out) {
  const auto f =
      parse_flags(args, {"--model", "--prompt", "--temperature", "--top-k", "--top-p", "--seed", "--top"}, "lm next");
  const LmModel model = model_arg(required(f, "--model", "lm next"));
  const std::string& prompt = prompt_arg(f, "lm next");
  const int top = static_cast<int>(whole_number(f, "--top", 10, 1, 65536));
  WriterOptions o;
  o.tokens = 1;
  o.sampling = sampling_args(f);
  o.seed = seed_arg(f);
  TextWriter writer(model, prompt, o);
  writer.step();
  const WriterStep& s = *writer.last_step();
  const std::vector<int> prompt_ids(writer.ids().begin() + 1, writer.ids().begin() + 1 + writer.prompt_tokens());
  Json stages = Json::array();
  const std::pair<const char*, const std::vector<float>*> named[] = {{"model", &s.stages.model},
                                                                     {"temperature", &s.stages.temperature},
                                                                     {"top_k", &s.stages.top_k},
                                                                     {"top_p", &s.stages.top_p}};
  for (const auto& [name, p] : named)
    stages.push_back({{"stage", name},
                      {"kept", std::count_if(p->begin(), p->end(), [](float x) { return x > 0.0f; })},
                      {"top", top_tokens(model.tokenizer, *p, top)}});
  Json drawn =
      s.token == kDocumentToken ? Json{{"text", ""}, {"id", s.token}} : token_list(model.tokenizer, {s.token})[0];
  drawn["u"] = s.u;
  out = dump(Json{{"prompt_tokens", token_list(model.tokenizer, prompt_ids)},
                  {"healed", s.healed},
                  {"stages", stages},
                  {"drawn", drawn}}) +
        "\n";
  return 0;
}

int lm_cache(const std::vector<std::string>& args, std::string& out) {
  const auto f = parse_flags(args, {"--model", "--tokens", "--kv-heads", "--bytes", "--time", "--prompt"}, "lm cache");
  const LmModel model = model_arg(required(f, "--model", "lm cache"));
  const LmConfig& c = model.config;
  const std::int64_t tokens = whole_number(f, "--tokens", c.context, 0, 1LL << 31);
  const int kv_heads = static_cast<int>(whole_number(f, "--kv-heads", c.heads, 1, c.heads));
  const int bytes = static_cast<int>(whole_number(f, "--bytes", 4, 1, 4));
  const KvMemory m = kv_memory(c, tokens, kv_heads, bytes);
  Json grouped = Json::array();
  for (int g = c.heads; g >= 1; --g)
    if (c.heads % g == 0) {
      const KvMemory mg = kv_memory(c, tokens, g, bytes);
      grouped.push_back({{"kv_heads", g}, {"per_token", mg.per_token}, {"total", mg.total}});
    }
  Json result{{"layers", m.layers},
              {"heads", m.heads},
              {"kv_heads", m.kv_heads},
              {"head_dim", m.head_dim},
              {"bytes_per_number", m.bytes_per_number},
              {"tokens", m.tokens},
              {"per_head_per_token", m.per_head_per_token},
              {"per_layer_per_token", m.per_layer_per_token},
              {"per_token", m.per_token},
              {"total", m.total},
              {"grouped", grouped}};
  const int rounds = static_cast<int>(whole_number(f, "--time", 0, 0, 20));
  if (f.count("--prompt") && rounds == 0) throw InputError("lm cache: --prompt is only used with --time");
  if (rounds > 0) {
    std::vector<int> prompt{kDocumentToken};
    const std::vector<int> encoded = model.tokenizer.encode(f.count("--prompt") ? f.at("--prompt") : "The");
    prompt.insert(prompt.end(), encoded.begin(), encoded.end());
    if (static_cast<int>(prompt.size()) >= c.context)
      throw InputError("lm cache: --prompt must be shorter than the context (" + std::to_string(c.context - 1) +
                       " tokens)");
    CacheRace race(model, prompt, rounds);
    while (!race.step(1.0)) {
    }
    Json cached = Json::array(), full = Json::array();
    for (int i = 0; i < race.positions(); ++i) {
      cached.push_back(race.cached_seconds(i));
      full.push_back(race.full_seconds(i));
    }
    result["time"] = {{"prompt_tokens", race.prompt_length()},
                      {"positions", race.positions()},
                      {"rounds", rounds},
                      {"prefill_s", race.prefill_seconds()},
                      {"cached_s", race.cached_total()},
                      {"full_s", race.full_total()},
                      {"speedup", race.full_total() / race.cached_total()},
                      {"same_tokens", race.same_tokens()},
                      {"cached_per_position_s", cached},
                      {"full_per_position_s", full},
                      {"text", model.tokenizer.decode(race.tokens())}};
  }
  out = dump(result) + "\n";
  return 0;
}

}  // namespace neuralpath::cli
