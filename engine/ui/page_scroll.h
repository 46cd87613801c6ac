// page_scroll.h: the page's vertical position, moved by the wheel, the keyboard, a finger (or
// mouse) dragging empty page space, and "go to section". A released drag coasts to a stop
// (inertia) and a section jump glides, unless the learner asked for reduced motion.
//
// TouchGesture: a finger's press, held back from ImGui until the finger shows what it means.
#pragma once

#include <imgui.h>

#include <optional>

namespace neuralpath::ui {

class PageScroller {
 public:
  float offset() const { return offset_; }
  float max() const { return max_; }
  bool moving() const { return glide_.has_value() || velocity_ != 0; }

  void set_max(float max);  // the content height minus the view; clamps the offset
  void jump_to(float y);    // at once (keys, commands)
  void glide_to(float y, bool reduced_motion);
  void glide_to_end(bool reduced_motion);  // follows the end even if the page grows meanwhile
  void scroll_by(float dy);                // at once (wheel, arrow keys)
  void drag_by(float dy, float dt);        // a drag moved the page by dy; tracks the finger's speed
  void release(bool reduced_motion);       // the drag ended: coast at the finger's speed, or stop
  void stop();
  void update(float dt);  // advances a glide or a coast

 private:
  float clamp(float y) const;

  float offset_ = 0;
  float max_ = 0;
  float velocity_ = 0;  // device pixels per second (drag, then coasting)
  bool dragging_ = false;
  std::optional<float> glide_;  // target of a glide
  float glide_from_ = 0;
  float glide_t_ = 0;  // seconds into the glide
  bool glide_end_ = false;
};

// A finger on a phone (#15): a page of widgets is mostly buttons, and ImGui gives a press to
// the button under it at once, so a learner swiping up the lesson got stuck on every chip, cell
// and timeline. The press is held back from ImGui until the finger shows what it means:
//   lifts before moving `slop`        a tap: ImGui gets the press where it landed, then the release
//   moves upright (|dy| >= |dx|)      a scroll: ImGui never sees a press; the page follows
//   moves sideways                    a drag: ImGui gets the press where the finger landed, then
//                                     the finger, so a slider or a timeline follows it
// Mouse presses pass untouched (the platform says which presses are fingers). Runs between the
// platform's pointer update and ImGui::NewFrame, on the io ImGui is about to read.
class TouchGesture {
 public:
  void finger_down() { finger_ = true; }  // the next press is a finger's
  void filter(ImGuiIO& io, float slop);   // rewrites io.MousePos / MouseDown[0] for this frame

  bool landed() const { return landed_; }  // the finger came down this frame
  bool scrolling() const { return state_ == State::scroll; }
  float scroll_dy() const { return scroll_dy_; }       // this frame's finger movement (device px)
  bool scroll_ended() const { return scroll_ended_; }  // the scrolling finger lifted this frame
  ImVec2 start() const { return start_; }              // where the finger landed
  bool pending() const { return state_ == State::undecided || state_ == State::tap; }  // needs frames

 private:
  enum class State { idle, undecided, scroll, handed_over, tap };
  State state_ = State::idle;
  bool finger_ = false;
  ImVec2 start_, last_;
  float scroll_dy_ = 0;
  bool scroll_ended_ = false;
  bool landed_ = false;
};

}  // namespace neuralpath::ui
