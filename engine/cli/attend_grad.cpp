// attend_grad.cpp: see attend_grad.h.
#include "attend_grad.h"

#include "engine/core/backward.h"
#include "engine/core/error.h"

#include <string>

namespace neuralpath::cli {

void add_attention_gradients(const Json& in, const std::vector<Matrix>& q, const std::vector<Matrix>& k,
                             const std::vector<Matrix>& v, const Mask& mask, Kernel kernel, int block, bool rank3,
                             Json& out) {
  if (!in.contains("grad_output")) return;
  const Json& g = in["grad_output"];
  if (is_rank3(g) != rank3 || (rank3 && g.size() != q.size()))
    throw InputError(std::string("\"grad_output\" must be shaped like the output: ") +
                     (rank3 ? "[H][T][d_v] with one matrix per head" : "[T][d_v]"));
  Json dq_all = Json::array(), dk_all = Json::array(), dv_all = Json::array();
  for (std::size_t h = 0; h < q.size(); ++h) {
    const Matrix dout =
        matrix_from_json(rank3 ? g[h] : g, rank3 ? "grad_output[" + std::to_string(h) + "]" : "grad_output");
    if (dout.rows() != q[h].rows() || dout.cols() != v[h].cols())
      throw InputError("grad_output is [" + std::to_string(dout.rows()) + "][" + std::to_string(dout.cols()) +
                       "] but the output is [" + std::to_string(q[h].rows()) + "][" + std::to_string(v[h].cols()) +
                       "]");
    Matrix dq = Matrix::Zero(q[h].rows(), q[h].cols());
    Matrix dk = Matrix::Zero(k[h].rows(), k[h].cols());
    Matrix dv = Matrix::Zero(v[h].rows(), v[h].cols());
    if (kernel == Kernel::naive) {
      const AttentionResult r = attention_naive(q[h], k[h], v[h], mask);
      attention_naive_backward(dq, dk, dv, dout, nullptr, q[h], k[h], v[h], r);
    } else {
      const Matrix o = attention_tiled(q[h], k[h], v[h], mask, block);
      const Vector lse = attention_row_logsumexp(q[h], k[h], mask, block);
      attention_tiled_backward(dq, dk, dv, dout, q[h], k[h], v[h], mask, o, lse, block);
    }
    // Inputs passed attend's range checks, but a huge grad_output can still overflow float32
    // in dO·Vᵀ or dS·K: refuse rather than print null.
    if (!dq.allFinite() || !dk.allFinite() || !dv.allFinite())
      throw InputError("the gradients leave float32's range (about 3.4e38); scale grad_output down");
    dq_all.push_back(matrix_json(dq));
    dk_all.push_back(matrix_json(dk));
    dv_all.push_back(matrix_json(dv));
  }
  out["grad_q"] = rank3 ? dq_all : dq_all.front();
  out["grad_k"] = rank3 ? dk_all : dk_all.front();
  out["grad_v"] = rank3 ? dv_all : dv_all.front();
}

}  // namespace neuralpath::cli
