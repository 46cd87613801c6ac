// attend.cpp: `neuralpath-cli attend`, raw scaled dot-product attention on matrices from JSON.
//
//   stdin:  {"q": Q, "k": K, "v": V, "mask": "causal"|"none", "kernel": "naive"|"tiled", "block": 64}
//           Q, K, V all [T][d] (one head) or all [H][T][d]; K and V share T; Q and K share d.
//   stdout: {"output": O, "weights": W}   (the tiled kernel never forms W, so prints no "weights")
//   with "grad_output" (shaped like O) also "grad_q", "grad_k", "grad_v" (attend_grad.h)
#include "attend_grad.h"
#include "attend_limits.h"
#include "commands.h"
#include "json_io.h"

#include "engine/core/attention.h"
#include "engine/core/error.h"

#include <string>
#include <vector>

namespace neuralpath::cli {

namespace {

std::string shape(const std::vector<Matrix>& heads, bool rank3) {
  const Matrix& m = heads.front();
  return (rank3 ? "[" + std::to_string(heads.size()) + "]" : "") + "[" + std::to_string(m.rows()) + "][" +
         std::to_string(m.cols()) + "]";
}

// One input as a list of per-head matrices (a single one for [T][d]).
std::vector<Matrix> heads_from_json(const Json& value, const std::string& name, bool rank3) {
  if (!rank3) return {matrix_from_json(value, name)};
  std::vector<Matrix> heads;
  for (std::size_t h = 0; h < value.size(); ++h) {
    heads.push_back(matrix_from_json(value[h], name + "[" + std::to_string(h) + "]"));
    const Matrix& m = heads.back();
    if (m.rows() != heads.front().rows() || m.cols() != heads.front().cols())
      throw InputError(name + "[" + std::to_string(h) + "] is [" + std::to_string(m.rows()) + "][" +
                       std::to_string(m.cols()) + "] but " + name + "[0] is [" + std::to_string(heads.front().rows()) +
                       "][" + std::to_string(heads.front().cols()) + "]");
  }
  return heads;
}

std::string text_field(const Json& in, const char* key, const char* fallback) {
  if (!in.contains(key)) return fallback;
  if (!in[key].is_string()) throw InputError(std::string("\"") + key + "\" must be a string");
  return in[key].get<std::string>();
}

}  // namespace

int run_attend(const std::string& stdin_text, std::string& stdout_text) {
  Json in;
  try {
    in = Json::parse(stdin_text);
  } catch (const Json::parse_error& e) {
    throw InputError(std::string("stdin is not valid JSON: ") + e.what());
  } catch (const Json::exception& e) {  // out_of_range: a number like 1e400, beyond even double
    throw InputError(std::string("stdin holds a number out of range (float32 reaches 3.4e38): ") + e.what());
  }
  if (!in.is_object()) throw InputError("stdin must be a JSON object {\"q\": ..., \"k\": ..., \"v\": ...}");
  for (const auto& [key, value] : in.items())
    if (key != "q" && key != "k" && key != "v" && key != "mask" && key != "kernel" && key != "block" &&
        key != "grad_output")
      throw InputError("unknown field \"" + key + "\" (expected q, k, v, mask, kernel, block, grad_output)");
  for (const char* key : {"q", "k", "v"})
    if (!in.contains(key)) throw InputError(std::string("missing \"") + key + "\"");

  const Mask mask = parse_mask(text_field(in, "mask", "none"));
  const Kernel kernel = parse_kernel(text_field(in, "kernel", "naive"));
  int block = kDefaultBlock;
  if (in.contains("block")) {
    if (!in["block"].is_number_integer() || in["block"].get<long long>() < 1 || in["block"].get<long long>() > 1 << 20)
      throw InputError("\"block\" must be a positive integer");
    block = in["block"].get<int>();
  }

  const bool rank3 = is_rank3(in["q"]);
  if (is_rank3(in["k"]) != rank3 || is_rank3(in["v"]) != rank3)
    throw InputError("q, k and v must all be [T][d] or all be [H][T][d]");
  const auto q = heads_from_json(in["q"], "q", rank3);
  const auto k = heads_from_json(in["k"], "k", rank3);
  const auto v = heads_from_json(in["v"], "v", rank3);
  if (k.size() != q.size() || v.size() != q.size())
    throw InputError("q is " + shape(q, rank3) + ", k is " + shape(k, rank3) + ", v is " + shape(v, rank3) +
                     ": they must have the same number of heads");
  // Shapes checked up front so the message names the whole tensors, not one head.
  if (q.front().cols() != k.front().cols())
    throw InputError("q is " + shape(q, rank3) + " but k is " + shape(k, rank3) + ": q and k must share d");
  if (k.front().rows() != v.front().rows())
    throw InputError("k is " + shape(k, rank3) + " but v is " + shape(v, rank3) + ": k and v must share T");
  // Sizes and float32 range, for both kernels alike (attend_limits.h).
  check_attend_sizes(static_cast<long long>(q.size()), q.front().rows(), k.front().rows(), kernel == Kernel::naive);
  check_attend_range(q, k, v, rank3);

  Json outputs = Json::array(), weights = Json::array();
  for (std::size_t h = 0; h < q.size(); ++h) {
    if (kernel == Kernel::naive) {
      const AttentionResult r = attention_naive(q[h], k[h], v[h], mask);
      outputs.push_back(matrix_json(r.output));
      weights.push_back(matrix_json(r.weights));
    } else {
      outputs.push_back(matrix_json(attention_tiled(q[h], k[h], v[h], mask, block)));
    }
  }
  Json out;
  out["output"] = rank3 ? outputs : outputs.front();
  if (kernel == Kernel::naive) out["weights"] = rank3 ? weights : weights.front();
  add_attention_gradients(in, q, k, v, mask, kernel, block, rank3, out);  // "grad_output" given
  stdout_text = out.dump() + "\n";
  return 0;
}

}  // namespace neuralpath::cli
