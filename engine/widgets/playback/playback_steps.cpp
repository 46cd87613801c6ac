#include "playback_steps.h"

#include "engine/text/catalogue.h"

#include <algorithm>
#include <cmath>

namespace neuralpath::widgets::playback {

const char* lesson_step_name(StepKind kind) {
  switch (kind) {
    case StepKind::tokens: return "tokens";
    case StepKind::embedding: return "embedding";
    case StepKind::positions: return "positions";
    case StepKind::context_layer: return "context";
    case StepKind::project_q:
    case StepKind::project_k:
    case StepKind::project_v: return "qkv";
    case StepKind::score: return "scores";
    case StepKind::scale: return "scale";
    case StepKind::mask: return "mask";
    case StepKind::softmax: return "softmax";
    case StepKind::blend: return "blend";
    case StepKind::concat_heads: return "heads";
    case StepKind::output_projection: return "output";
    case StepKind::residual: return "residual";
    case StepKind::layer_norm: return "layer-norm";
    case StepKind::feed_forward: return "feed-forward";
    case StepKind::next_token: return "next-token";
  }
  return "tokens";
}

Stage stage_of(StepKind kind) {
  switch (kind) {
    case StepKind::tokens:
    case StepKind::embedding:
    case StepKind::positions: return Stage::tokens;
    case StepKind::context_layer: return Stage::context;
    case StepKind::project_q:
    case StepKind::project_k:
    case StepKind::project_v: return Stage::qkv;
    case StepKind::score:
    case StepKind::scale: return Stage::scores;
    case StepKind::mask: return Stage::mask;
    case StepKind::softmax: return Stage::softmax;
    case StepKind::blend: return Stage::blend;
    case StepKind::concat_heads:
    case StepKind::output_projection: return Stage::heads;
    case StepKind::residual:
    case StepKind::layer_norm:
    case StepKind::feed_forward: return Stage::feed_forward;
    case StepKind::next_token: return Stage::next_token;
  }
  return Stage::tokens;
}

std::string stage_label(Stage stage) {
  switch (stage) {
    case Stage::tokens: return tr("playback.stage.tokens");
    case Stage::context: return tr("playback.stage.context");
    case Stage::qkv: return "Q, K, V";
    case Stage::scores: return "Q·Kᵀ × 1/√d";
    case Stage::mask: return tr("playback.stage.mask");
    case Stage::softmax: return tr("playback.stage.softmax");
    case Stage::blend: return "× V";
    case Stage::heads: return tr("playback.stage.heads");
    case Stage::feed_forward: return tr("playback.stage.feed_forward");
    case Stage::next_token: return tr("playback.stage.next_token");
  }
  return "";
}

std::vector<int> select_steps(const Trace& trace, const std::vector<std::string>& names) {
  std::vector<int> chosen;
  for (std::size_t i = 0; i < trace.steps.size(); ++i) {
    const std::string name = lesson_step_name(trace.steps[i].kind);
    if (names.empty() || std::find(names.begin(), names.end(), name) != names.end())
      chosen.push_back(static_cast<int>(i));
  }
  return chosen;
}

std::vector<int> code_lines_for(const lesson::CodeBlock& code, StepKind kind) {
  const std::string name = lesson_step_name(kind);
  std::vector<int> lines;
  for (const lesson::CodeStep& step : code.steps)
    if (step.step == name) lines.insert(lines.end(), step.lines.begin(), step.lines.end());
  return lines;
}

namespace {

bool inside(const Matrix& m, Cell c) { return c.row >= 0 && c.col >= 0 && c.row < m.rows() && c.col < m.cols(); }

// The key j whose weight·value product contributes most to blend cell (i, c): the same choice
// the narration makes ("mostly from 'cat' (weight 0.61 times value 1.20)").
int main_contributor(const Matrix& w, const Matrix& v, Cell c) {
  Index from = 0;
  (w.row(c.row).transpose().cwiseProduct(v.col(c.col))).cwiseAbs().maxCoeff(&from);
  return static_cast<int>(from);
}

}  // namespace

InputFocus input_focus(const Step& step, std::size_t input, Cell cell) {
  InputFocus f;
  if (input >= step.inputs.size() || !inside(step.result.values, cell)) return f;
  const Matrix& m = step.inputs[input].values;
  const int i = cell.row, c = cell.col;
  auto speak = [&](Cell at) {
    if (inside(m, at)) f.spoken.push_back(at);
  };
  switch (step.kind) {
    case StepKind::positions:
    case StepKind::residual:
      f.row = i;
      speak({i, c});
      break;
    case StepKind::context_layer:
      f.row = i;
      if (input == 0) speak({i, c});
      if (input == 1 && m.rows() > i && m.cols() > 0) {  // head 1's weights: the token gathered most
        Index from = 0;
        if (m.row(i).maxCoeff(&from) > 0.0f) speak({i, static_cast<int>(from)});
      }
      break;
    case StepKind::project_q:
    case StepKind::project_k:
    case StepKind::project_v:
    case StepKind::output_projection:  // result(i, c) = row i of the left · column c of the right
      if (input == 0)
        f.row = i;
      else
        f.col = c;
      break;
    case StepKind::score:  // q_i · k_c: row i of Q, row c of K
      f.row = input == 0 ? i : c;
      break;
    case StepKind::scale:
      f.row = i;
      speak({i, c});
      break;
    case StepKind::mask:
    case StepKind::softmax:  // a whole row goes into each weight
      f.row = i;
      break;
    case StepKind::blend:
      if (input == 0)
        f.row = i;
      else
        f.col = c;
      if (step.inputs.size() == 2 && step.inputs[0].values.cols() == step.inputs[1].values.rows()) {
        const int j = main_contributor(step.inputs[0].values, step.inputs[1].values, cell);
        speak(input == 0 ? Cell{i, j} : Cell{j, c});
      }
      break;
    case StepKind::concat_heads: {  // head h's block of columns
      const auto width = static_cast<int>(m.cols());
      if (width > 0 && static_cast<std::size_t>(c / width) == input) {
        f.row = i;
        f.col = c % width;
      }
      break;
    }
    case StepKind::layer_norm:
      f.row = i;
      speak(input == 0 ? Cell{i, c} : Cell{i, 0});
      break;
    case StepKind::feed_forward: f.row = i; break;
    case StepKind::next_token:
      f.col = c;
      speak({0, c});
      break;
    case StepKind::tokens:
    case StepKind::embedding: break;
  }
  return f;
}

}  // namespace neuralpath::widgets::playback
