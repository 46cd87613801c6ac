#include "page_scroll.h"

#include <algorithm>
#include <cmath>

namespace neuralpath::ui {
namespace {

constexpr float coast_time = 0.35f;  // seconds for a coast to slow to 1/e of its speed
constexpr float glide_time = 0.3f;   // seconds a glide (section jump, Page Down) takes
constexpr float stop_speed = 25.0f;  // pixels per second below which a coast ends

}  // namespace

float PageScroller::clamp(float y) const { return std::clamp(y, 0.0f, max_); }

void PageScroller::set_max(float max) {
  max_ = std::max(0.0f, max);
  offset_ = clamp(offset_);
  if (glide_) glide_ = glide_end_ ? max_ : clamp(*glide_);
}

void PageScroller::jump_to(float y) {
  stop();
  offset_ = clamp(y);
}

void PageScroller::glide_to(float y, bool reduced_motion) {
  if (reduced_motion) return jump_to(y);
  velocity_ = 0;
  glide_from_ = offset_;
  glide_t_ = 0;
  glide_end_ = false;
  glide_ = clamp(y);
}

void PageScroller::glide_to_end(bool reduced_motion) {
  glide_to(max_, reduced_motion);
  glide_end_ = !reduced_motion;
  if (reduced_motion) offset_ = max_;
}

void PageScroller::scroll_by(float dy) {
  const float from = glide_ ? *glide_ : offset_;
  stop();
  offset_ = clamp(from + dy);
}

void PageScroller::drag_by(float dy, float dt) {
  glide_.reset();
  dragging_ = true;
  offset_ = clamp(offset_ + dy);
  // The finger's speed, smoothed over the last few frames (one frame is too jittery).
  if (dt > 0) velocity_ = 0.7f * velocity_ + 0.3f * (dy / dt);
}

void PageScroller::release(bool reduced_motion) {
  dragging_ = false;
  if (reduced_motion || std::fabs(velocity_) < stop_speed * 4) velocity_ = 0;
}

void PageScroller::stop() {
  glide_.reset();
  glide_end_ = false;
  velocity_ = 0;
  dragging_ = false;
}

void PageScroller::update(float dt) {
  if (dt <= 0) return;
  if (glide_) {
    // Ease out (cubic): quick to start, gentle to land, and done in a fixed time.
    glide_t_ += dt;
    if (glide_end_) glide_ = max_;
    const float t = std::min(1.0f, glide_t_ / glide_time);
    const float eased = 1 - (1 - t) * (1 - t) * (1 - t);
    offset_ = clamp(glide_from_ + (*glide_ - glide_from_) * eased);
    if (t >= 1) glide_.reset();
  } else if (!dragging_ && velocity_ != 0) {
    offset_ = clamp(offset_ + velocity_ * dt);
    velocity_ *= std::exp(-dt / coast_time);
    if (std::fabs(velocity_) < stop_speed || offset_ <= 0 || offset_ >= max_) velocity_ = 0;
  }
}

// [SECTION] A finger's press -------------------------------------------------------------------

void TouchGesture::filter(ImGuiIO& io, float slop) {
  const bool down = io.MouseDown[0];
  const ImVec2 at = io.MousePos;
  scroll_dy_ = 0;
  scroll_ended_ = false;
  landed_ = false;
  switch (state_) {
    case State::idle:
      if (down && finger_) {  // held back: ImGui sees the finger hover, not press
        state_ = State::undecided;
        start_ = last_ = at;
        landed_ = true;
        io.MouseDown[0] = false;
      }
      if (!down) finger_ = false;
      break;
    case State::undecided: {
      const ImVec2 moved(at.x - start_.x, at.y - start_.y);
      if (!down) {  // a tap: the press now, where it landed; the release next frame
        state_ = State::tap;
        io.MouseDown[0] = true;
        io.MousePos = start_;
      } else if (std::fabs(moved.x) + std::fabs(moved.y) <= slop) {
        io.MouseDown[0] = false;
      } else if (std::fabs(moved.y) >= std::fabs(moved.x)) {
        state_ = State::scroll;
        scroll_dy_ = moved.y;  // the whole way from where it landed
        io.MouseDown[0] = false;
      } else {  // sideways: ImGui presses where the finger landed and follows it from the next frame
        state_ = State::handed_over;
        io.MousePos = start_;
      }
      break;
    }
    case State::scroll:
      if (down) {
        scroll_dy_ = at.y - last_.y;
        io.MouseDown[0] = false;
      } else {
        state_ = State::idle;
        scroll_ended_ = true;
        finger_ = false;
      }
      break;
    case State::handed_over:
      if (!down) {
        state_ = State::idle;
        finger_ = false;
      }
      break;
    case State::tap:  // the release, still where the finger landed (np-input.js may have moved
                      // the pointer off the canvas already); a new press waits for the next frame
      io.MouseDown[0] = false;
      io.MousePos = start_;
      state_ = State::idle;
      if (!down) finger_ = false;
      break;
  }
  last_ = at;
}

}  // namespace neuralpath::ui
