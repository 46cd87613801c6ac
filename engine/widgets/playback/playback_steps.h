// playback_steps.h: which steps of a Trace a playback walks through, and how each one is named
// on the board, in the lesson's code block and in the flow diagram. Pure data, no ImGui, so the
// tests check the order and the step -> code-line mapping without drawing anything.
//
//   lesson step name   trace StepKind(s)                      flow stage
//   ----------------   ------------------------------------   --------------------------
//   tokens             tokens                                 Tokens + positions
//   embedding          embedding                              Tokens + positions
//   positions          positions                              Tokens + positions
//   context            context_layer                          Earlier layer
//   qkv                project_q, project_k, project_v        Q, K, V
//   scores, scale      score, scale                           Q·Kᵀ × 1/√d
//   mask               mask                                   Mask
//   softmax            softmax                                Softmax
//   blend              blend                                  × V
//   heads, output      concat_heads, output_projection        Heads joined
//   residual,          residual, layer_norm, feed_forward     Feed-forward + LayerNorm
//   layer-norm,
//   feed-forward
//   next-token         next_token                             Next token
#pragma once
#include "engine/trace/trace.h"
#include "engine/lesson/lesson.h"

#include <string>
#include <vector>

namespace neuralpath::widgets::playback {

// The boxes of the flow diagram, in the order data flows through the block.
enum class Stage { tokens, context, qkv, scores, mask, softmax, blend, heads, feed_forward, next_token };
inline constexpr int kStageCount = 10;

const char* lesson_step_name(StepKind kind);  // "qkv" for project_k (the names authors write)
Stage stage_of(StepKind kind);
std::string stage_label(Stage stage);  // "Q·Kᵀ × 1/√d" (drawn in the flow box)

// Trace step indices the playback shows, in trace order: every step whose lesson name is in
// `names` (all steps when `names` is empty).
std::vector<int> select_steps(const Trace& trace, const std::vector<std::string>& names);

// 1-based code lines mapped to `kind` by the code block's `steps:` table (empty if none).
std::vector<int> code_lines_for(const lesson::CodeBlock& code, StepKind kind);

// How result cell `cell` of `step` uses input `input`: the row and/or column of the input that
// went into it (lit on the board while that cell is computed), and the input cells whose
// numbers the narration speaks for it (always printed on the board).
struct InputFocus {
  int row = -1;  // -1 = no row lit
  int col = -1;  // -1 = no column lit
  std::vector<Cell> spoken;
};
InputFocus input_focus(const Step& step, std::size_t input, Cell cell);

}  // namespace neuralpath::widgets::playback
