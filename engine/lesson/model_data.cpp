// model_data.cpp: the ```vocabulary and ```weights blocks, read after the whole file is walked
// (the weights may name features that the vocabulary declares further down).
//
// [SECTION] Numbers    one number, a row of numbers
// [SECTION] Vocabulary features and word vectors
// [SECTION] Matrices   dense rows or sparse "from -> to: value" entries
// [SECTION] Weights    layers, feed-forward, positions, temperature, seed
#include "engine/lesson/parse_context.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>

namespace neuralpath::lesson::detail {

namespace {

// [SECTION] Numbers -----------------------------------------------------------------------------

std::string magnitude() { return std::to_string(static_cast<int>(kMaxWeightMagnitude)); }

// 0.1, 5: a limit as an author writes it.
std::string format_limit(float v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", static_cast<double>(v));
  return text;
}

// A word vector's or a matrix's number: at most kMaxWeightMagnitude either way (limits.h).
std::optional<float> number(ParseContext& ctx, const SettingsNode& n) {
  if (n.kind == SettingsNode::Kind::Text)
    if (auto v = parse_number(n.text.text())) {
      if (std::fabs(*v) <= kMaxWeightMagnitude) return v;
      ctx.error(n.origin,
                "'" + n.text.text() + "' is too large: a weight is between -" + magnitude() + " and " + magnitude());
      return std::nullopt;
    }
  ctx.error(n.origin, n.kind == SettingsNode::Kind::Text
                          ? "'" + n.text.text() + "' is not a number"
                          : std::string("expected a number, found ") + kind_name(n.kind));
  return std::nullopt;
}

std::optional<std::vector<float>> row(ParseContext& ctx, const SettingsNode& n) {
  if (n.kind != SettingsNode::Kind::List) {
    ctx.error(n.origin, "expected a row of numbers like [1, 0, 0.5]");
    return std::nullopt;
  }
  std::vector<float> out;
  bool ok = true;
  for (const auto& item : n.items) {
    auto v = number(ctx, item);
    ok = ok && v.has_value();
    out.push_back(v.value_or(0.0f));
  }
  if (!ok) return std::nullopt;
  return out;
}

// A feature's label heads a board column and is read aloud: a word or two, not a sentence.
constexpr std::size_t kMaxFeatureLabelBytes = 40;

bool valid_feature_name(std::string_view s) {
  if (s.empty() || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// [SECTION] Vocabulary --------------------------------------------------------------------------

void build_vocabulary(ParseContext& ctx) {
  const SettingsNode& node = *ctx.vocabulary_settings;
  Fields f(ctx, node, "vocabulary", ctx.vocabulary_origin);
  VocabularyData vocab;
  vocab.pos = ctx.pos(ctx.vocabulary_origin);
  if (const SettingsNode* features = f.list("features", true)) {
    for (const auto& item : features->items) {
      const std::string name = item.kind == SettingsNode::Kind::Text ? item.text.text() : "";
      if (!valid_feature_name(name)) {
        ctx.error(item.origin, "a feature name is a word such as animate or needs_place");
        continue;
      }
      if (std::find(vocab.features.begin(), vocab.features.end(), name) != vocab.features.end())
        ctx.error(item.origin, "feature '" + name + "' is listed twice");
      vocab.features.push_back(name);
    }
    if (vocab.features.empty()) ctx.error(features->origin, "the vocabulary needs at least one feature");
  }
  // labels: the name each feature shows by (a translation's words: "thing: cosa"). Weights,
  // tasks and the checker keep using the feature names themselves.
  if (const SettingsNode* labels = f.map("labels", false)) {
    vocab.labels.assign(vocab.features.size(), "");
    for (const auto& e : labels->entries) {
      auto it = std::find(vocab.features.begin(), vocab.features.end(), e.key);
      if (it == vocab.features.end()) {
        ctx.error(e.key_origin, "'" + e.key + "' is not one of the features");
        continue;
      }
      const std::string label = e.value.kind == SettingsNode::Kind::Text ? e.value.text.text() : "";
      if (label.empty() || label.size() > kMaxFeatureLabelBytes) {
        ctx.error(e.value.origin ? e.value.origin : e.key_origin, "a feature's label is a short text (at most " +
                                                                      std::to_string(kMaxFeatureLabelBytes) +
                                                                      " bytes), such as 'thing: cosa'");
        continue;
      }
      vocab.labels[static_cast<std::size_t>(it - vocab.features.begin())] = label;
    }
  }
  if (const SettingsNode* words = f.map("words", true)) {
    for (const auto& e : words->entries) {
      WordVector w;
      w.word = e.key;
      w.pos = ctx.pos(e.key_origin);
      std::string lower = e.key;
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (lower != e.key) {
        ctx.error(e.key_origin, "vocabulary words are written in lower case ('" + lower +
                                    "'): the tokenizer looks words up in lower case");
        continue;
      }
      if (e.value.kind == SettingsNode::Kind::Map) {
        // Sparse form: "feature: value" lines; everything else is 0.
        w.values.assign(vocab.features.size(), 0.0f);
        for (const auto& fe : e.value.entries) {
          auto it = std::find(vocab.features.begin(), vocab.features.end(), fe.key);
          if (it == vocab.features.end()) {
            ctx.error(fe.key_origin, "'" + fe.key + "' is not one of the features");
            continue;
          }
          if (auto v = number(ctx, fe.value)) w.values[static_cast<std::size_t>(it - vocab.features.begin())] = *v;
        }
      } else if (auto r = row(ctx, e.value)) {
        if (r->size() > vocab.features.size())
          ctx.error(e.value.origin, "'" + e.key + "' has " + std::to_string(r->size()) +
                                        " numbers but there are only " + std::to_string(vocab.features.size()) +
                                        " features");
        w.values = std::move(*r);
        w.values.resize(vocab.features.size(), 0.0f);
      } else {
        continue;
      }
      vocab.words.push_back(std::move(w));
    }
  }
  f.finish();
  if (vocab.words.size() * std::max<std::size_t>(1, vocab.features.size()) > kMaxModelNumbers)
    ctx.error(ctx.vocabulary_origin, "the vocabulary holds " + std::to_string(vocab.words.size()) + " words of " +
                                         std::to_string(vocab.features.size()) +
                                         " numbers; a lesson's model holds at most " +
                                         std::to_string(kMaxModelNumbers) + " numbers");
  ctx.lesson->vocabulary = std::move(vocab);
}

// [SECTION] Matrices ----------------------------------------------------------------------------

// A dimension named by a feature ("animate") or by its 0-based index ("d9").
std::optional<int> dimension(const std::vector<std::string>& features, std::string_view name, int d) {
  auto it = std::find(features.begin(), features.end(), name);
  if (it != features.end()) return static_cast<int>(it - features.begin());
  if (name.size() > 1 && name[0] == 'd')
    if (auto k = parse_integer(name.substr(1)); k && *k >= 0 && *k < d) return static_cast<int>(*k);
  return std::nullopt;
}

std::optional<MatrixData> matrix(ParseContext& ctx, const std::string& name, const SettingsNode& n,
                                 const std::vector<std::string>& features, int rows, int cols) {
  MatrixData m;
  m.name = name;
  m.pos = ctx.pos(n.origin);
  const std::string shape = std::to_string(rows) + "×" + std::to_string(cols);
  if (n.kind == SettingsNode::Kind::List) {
    bool ok = true;
    for (const auto& item : n.items) {
      auto r = row(ctx, item);
      if (!r) {
        ok = false;
        continue;
      }
      if (static_cast<int>(r->size()) != cols) {
        ctx.error(item.origin, name + " must be " + shape + ": this row has " + std::to_string(r->size()) + " numbers");
        ok = false;
      }
      m.rows.push_back(std::move(*r));
    }
    if (ok && static_cast<int>(m.rows.size()) != rows) {
      ctx.error(n.origin, name + " must be " + shape + " but has " + std::to_string(m.rows.size()) + " rows");
      ok = false;
    }
    if (!ok) return std::nullopt;
    return m;
  }
  if (n.kind == SettingsNode::Kind::Map) {
    // "animate -> place: 2" puts 2 in row animate, column place; the rest stays 0.
    m.rows.assign(static_cast<std::size_t>(rows), std::vector<float>(static_cast<std::size_t>(cols), 0.0f));
    bool ok = true;
    for (const auto& e : n.entries) {
      const std::size_t arrow = e.key.find("->");
      if (arrow == std::string::npos) {
        ctx.error(e.key_origin, "an entry of " + name + " reads 'from -> to: value'");
        ok = false;
        continue;
      }
      const std::string from = trim(e.key.substr(0, arrow)), to = trim(e.key.substr(arrow + 2));
      auto r = dimension(features, from, rows), c = dimension(features, to, cols);
      if (!r || *r >= rows) {
        ctx.error(e.key_origin, "'" + from + "' is not a feature or a dimension d0…d" + std::to_string(rows - 1));
        ok = false;
        continue;
      }
      if (!c || *c >= cols) {
        ctx.error(e.key_origin + arrow + 2,
                  "'" + to + "' is not a feature or a dimension d0…d" + std::to_string(cols - 1));
        ok = false;
        continue;
      }
      auto v = number(ctx, e.value);
      if (!v) {
        ok = false;
        continue;
      }
      m.rows[static_cast<std::size_t>(*r)][static_cast<std::size_t>(*c)] = *v;
    }
    if (!ok) return std::nullopt;
    return m;
  }
  ctx.error(n.origin, name + " is a list of rows ([1, 0, …]) or 'from -> to: value' lines");
  return std::nullopt;
}

// [SECTION] Weights -----------------------------------------------------------------------------

LayerData layer(ParseContext& ctx, const SettingsNode& n, const std::string& what,
                const std::vector<std::string>& features, int d) {
  LayerData l;
  l.pos = ctx.pos(n.origin);
  if (n.kind != SettingsNode::Kind::Map) {
    ctx.error(n.origin, what + " is a map with heads, W_Q, W_K, W_V, W_O");
    return l;
  }
  Fields f(ctx, n, what, n.origin);
  l.label = f.text("label", false).value_or("");
  l.heads = static_cast<int>(f.integer("heads", 1, 1, 64).value_or(1));
  if (d > 0 && d % l.heads != 0)
    if (const SettingsNode* h = n.find("heads"))
      ctx.error(h->origin, "heads (" + std::to_string(l.heads) + ") must divide d_model (" + std::to_string(d) + ")");
  for (const char* name : {"W_Q", "W_K", "W_V", "W_O"}) {
    if (const SettingsNode* m = f.get(name))
      if (auto data = matrix(ctx, name, *m, features, d, d)) l.matrices.push_back(std::move(*data));
  }
  f.finish();
  return l;
}

}  // namespace

WeightsData read_weights(ParseContext& ctx, const SettingsNode& node, std::size_t origin, const char* block,
                         const std::vector<std::string_view>& skip) {
  Fields f(ctx, node, block, origin);
  for (std::string_view key : skip) (void)f.get(key);
  WeightsData w;
  w.pos = ctx.pos(origin);
  std::vector<std::string> features;
  if (ctx.lesson->vocabulary)
    features = ctx.lesson->vocabulary->features;
  else
    ctx.error(origin, std::string("a ") + block + " block needs a vocabulary block (its features name the dimensions)");

  w.d_model = static_cast<int>(f.integer("d-model", 0, 0, 4096).value_or(0));
  if (w.d_model != 0 && w.d_model < static_cast<int>(features.size()))
    ctx.error(node.find("d-model")->origin,
              "d-model must be at least the number of features (" + std::to_string(features.size()) + ")");
  const int d = w.d_model != 0 ? w.d_model : std::max(1, static_cast<int>(features.size()));

  if (auto p = f.source("positions", false)) {
    if (auto flag = parse_flag(p->text()))
      w.positions = *flag;
    else if (auto v = parse_number(p->text()); v && std::fabs(*v) <= kMaxWeightMagnitude)
      w.position_scale = *v;
    else
      ctx.error(p->origin(0), "'positions' is on, off or a scale such as 0.1 (at most " + magnitude() + ")");
  }
  if (const SettingsNode* ctxl = f.list("context", false)) {
    if (ctxl->items.size() > static_cast<std::size_t>(kMaxContextLayers))
      ctx.error(ctxl->origin, "a model has at most " + std::to_string(kMaxContextLayers) + " context layers, not " +
                                  std::to_string(ctxl->items.size()));
    else
      for (const auto& item : ctxl->items) w.context.push_back(layer(ctx, item, "context layer", features, d));
  }
  if (const SettingsNode* a = f.get("attention")) w.attention = layer(ctx, *a, "attention", features, d);

  if (const SettingsNode* ff = f.get("feed-forward")) {
    if (ff->kind == SettingsNode::Kind::Text) {
      if (auto flag = parse_flag(ff->text.text()))
        w.feed_forward = *flag;
      else
        ctx.error(ff->origin, "'feed-forward' is on, off or a map with hidden, W1, b1, W2, b2");
    } else if (ff->kind == SettingsNode::Kind::Map) {
      Fields ff_fields(ctx, *ff, "feed-forward", ff->origin);
      w.feed_forward = ff_fields.flag("enabled", true);
      w.hidden = static_cast<int>(ff_fields.integer("hidden", 0, 0, 16384).value_or(0));
      const int hidden = w.hidden != 0 ? w.hidden : 4 * d;
      const std::pair<const char*, std::pair<int, int>> shapes[] = {
          {"W1", {d, hidden}}, {"b1", {1, hidden}}, {"W2", {hidden, d}}, {"b2", {1, d}}};
      for (const auto& [name, shape] : shapes) {
        const SettingsNode* m = ff_fields.get(name);
        if (!m) continue;
        if (name[0] == 'b' && m->kind == SettingsNode::Kind::List) {
          // A bias is written as one row: b1: [0.1, 0, ...]
          SettingsNode wrapped;
          wrapped.kind = SettingsNode::Kind::List;
          wrapped.origin = m->origin;
          wrapped.items.push_back(*m);
          if (auto data = matrix(ctx, name, wrapped, features, 1, shape.second))
            w.feed_forward_matrices.push_back(std::move(*data));
        } else if (auto data = matrix(ctx, name, *m, features, shape.first, shape.second)) {
          w.feed_forward_matrices.push_back(std::move(*data));
        }
      }
      ff_fields.finish();
    }
  }
  if (auto t = f.source("temperature", false)) {
    auto v = parse_number(t->text());
    if (!v || !(*v >= kMinTemperature && *v <= kMaxTemperature))
      ctx.error(t->origin(0), "'temperature' is a number from " + format_limit(kMinTemperature) + " to " +
                                  format_limit(kMaxTemperature));
    else
      w.temperature = *v;
  }
  if (auto s = f.source("seed", false)) {
    auto v = parse_integer(s->text());
    if (!v || *v < 0)
      ctx.error(s->origin(0), "'seed' is a whole number of 0 or more");
    else
      w.seed = static_cast<std::uint64_t>(*v);
  }
  f.finish();
  // Every number the model will hold, the seeded defaults included: attention and context
  // layers (W_Q, W_K, W_V, W_O: 4·d²), the feed-forward's W1, b1, W2, b2, and the word vectors
  // (the vocabulary's, and the next-token step's unembedding of the same size).
  const double dd = static_cast<double>(d);
  const double hidden = w.feed_forward ? (w.hidden != 0 ? w.hidden : 4.0 * dd) : 0.0;
  const double words = ctx.lesson->vocabulary ? static_cast<double>(ctx.lesson->vocabulary->words.size()) : 0.0;
  const double numbers = (static_cast<double>(w.context.size()) + 1.0) * 4.0 * dd * dd +
                         (w.feed_forward ? 2.0 * dd * hidden + hidden + dd : 0.0) + 2.0 * words * dd;
  if (numbers > static_cast<double>(kMaxModelNumbers))
    ctx.error(origin, std::string("this model would hold about ") + std::to_string(static_cast<long long>(numbers)) +
                          " numbers; a lesson's model holds at most " + std::to_string(kMaxModelNumbers) +
                          " (a smaller d-model, hidden or fewer context layers)");
  return w;
}

void build_model_data(ParseContext& ctx) {
  if (ctx.vocabulary_settings) build_vocabulary(ctx);
  if (ctx.weights_settings)
    ctx.lesson->weights = read_weights(ctx, *ctx.weights_settings, ctx.weights_origin, "weights");
  if (ctx.trained_weights_settings) build_trained_weights(ctx);  // task_block.cpp
}

}  // namespace neuralpath::lesson::detail
