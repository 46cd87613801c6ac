// playback_view.h: draws a const PlaybackModel with Dear ImGui as a fixed frame that fits the
// screen, so the caption and the transport stay in view at every step, on a phone as on a desk:
//
//   ┌ flow of the block (one row of stage dots on a phone) ─────────────┐  the frame: its height
//   │ Step n of N · title                                                │  depends on the sentence
//   │ ┌ stage: the step's matrices, shrunk to fit; a tap on one zooms ┐ │  and the screen, never on
//   │ │ it to its numbers with row and column labels                  │ │  the step
//   │ └───────────────────────────────────────────────────────────────┘ │
//   │ caption (as tall as the longest caption)                           │
//   │ ⟲ ◀ ▶ ▶|        timeline (segments >= 24 px, on as many rows as needed) │
//   └ follow, speed and voice, code, heads, the learner's sentence ─────┘
//
// Clicks and keys come back as the model's commands. layout() reports where the frame's parts
// were drawn, in CSS pixels, for state() and the browser tests.
//   keys       space play/pause, ← → step: after a click on the board, until a click elsewhere
#pragma once
#include "engine/widgets/playback/playback_model.h"
#include "engine/ui/widgets/widget_view.h"

#include <imgui.h>
#include <imgui_internal.h>  // ImRect

#include <string>
#include <vector>

namespace neuralpath::ui {

namespace playback {
struct Painter;
struct MatrixStyle;
}  // namespace playback

class PlaybackView : public LaidOutView<PlaybackModel> {
 public:
  void draw(const UiContext& ui, const PlaybackModel& model, Asked& asked);

  const std::vector<std::string>& drawn_strings() const { return drawn_; }  // last frame, caption excluded
  const std::string& zoomed() const { return zoom_; }                       // matrix shown alone, or ""

 private:
  // The frame, top to bottom. Each returns the height it used (device pixels).
  float draw_flow(const playback::Painter& p, const PlaybackModel& m, ImVec2 pos, float width, Asked& asked);
  float draw_header(const playback::Painter& p, const PlaybackModel& m, ImVec2 pos, float width, float height);
  void draw_stage(const playback::Painter& p, const PlaybackModel& m, ImRect stage, Asked& asked);
  void draw_zoom(const playback::Painter& p, const PlaybackModel& m, const playback::MatrixStyle& item, ImRect stage);
  float draw_caption(const playback::Painter& p, const PlaybackModel& m, ImVec2 pos, float width, float height);
  float draw_transport(const playback::Painter& p, const PlaybackModel& m, ImVec2 pos, float width, Asked& asked);
  float draw_timeline(const playback::Painter& p, const PlaybackModel& m, ImVec2 pos, float width, Asked& asked);
  // Below the frame.
  float draw_focus_picker(const playback::Painter& p, const PlaybackModel& m, ImVec2 pos, float width, Asked& asked);
  float draw_speed_voice(const playback::Painter& p, const PlaybackModel& m, ImVec2 pos, float width, Asked& asked);
  float draw_heads(const playback::Painter& p, const PlaybackModel& m, ImVec2 pos, float width, Asked& asked);
  float draw_sentence_input(const playback::Painter& p, const PlaybackModel& m, ImVec2 pos, float width, Asked& asked);
  float draw_temperature(const playback::Painter& p, const PlaybackModel& m, ImVec2 pos, float width, Asked& asked);
  // Heights that do not change from step to step (the tallest of every step's).
  float stage_natural_height(const playback::Painter& p, const PlaybackModel& m, float width) const;
  float header_height(const playback::Painter& p, const PlaybackModel& m, float width) const;
  float caption_height(const playback::Painter& p, const PlaybackModel& m, float width) const;
  void handle_keys(Asked& asked);            // space, ←, → while the board has the keyboard
  float fill(const PlaybackModel& m) const;  // the current step's animation, 1 with reduced motion
  nlohmann::json css_rect(ImVec2 min, ImVec2 max) const;

  bool reduced_motion_ = false;
  float scale_ = 1;
  bool focused_ = false;        // clicked on last: space and arrows are the board's
  std::string zoom_;            // the matrix shown alone with its numbers (kept while
                                // the steps that follow show it too)
  int zoom_block_ = -1;         // which block of its columns shows, when the blocks do not all fit
  std::string zoom_block_for_;  // the matrix and step zoom_block_ was chosen for
  char input_[512] = {};        // the sentence field
  std::string input_for_;       // the model sentence input_ was last filled from
  std::vector<std::string> drawn_;
};

}  // namespace neuralpath::ui
