// page_scroll.h: the page's vertical position, moved by the wheel, the keyboard, a finger (or
// mouse) dragging empty page space, and "go to section". A released drag coasts to a stop
// (inertia) and a section jump glides, unless the learner asked for reduced motion.
#pragma once

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

}  // namespace neuralpath::ui
