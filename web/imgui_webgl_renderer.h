// imgui_webgl_renderer.h: draws Dear ImGui's draw data with WebGL2, as imgui_impl_opengl3's
// RenderDrawData does, with one change that matters on a CPU: solid fills skip the font texture.
//
// Dear ImGui draws a solid rectangle by sampling its atlas's white pixel, so every pixel of a
// card or panel pays for a filtered texture fetch that changes nothing. In software WebGL
// (SwiftShader, this project's headless Chromium) that fetch is most of a pixel's cost: a
// 1440x900 blended quad took ~43 ms of the GPU process's CPU with the fetch and ~22 ms without
// (#10). The vertex shader marks a vertex whose UV is the white pixel's, and the fragment shader
// then uses the vertex colour alone. Text and images are drawn exactly as before.
//
// It draws again only the part of the canvas a frame changes (canvas_damage.h): it clears that
// rectangle and draws, cut to it, the commands that reach into it.
//
// The backend (imgui_impl_opengl3) still owns the font texture and its other objects; this
// renderer owns only its program and buffers, and forgets them when the WebGL context is lost.
#pragma once

#include "canvas_damage.h"

struct ImDrawData;
struct ImVec4;

namespace neuralpath::web {

class ImGuiWebGLRenderer {
 public:
  // Clears `area` (framebuffer pixels, y down) to `clear` and draws what falls in it.
  void render(const ImDrawData* data, const PixelRect& area, const ImVec4& clear);
  void forget();  // the context was lost: its handles are gone (made again on the next render)

 private:
  bool create();
  void set_up(const ImDrawData* data, int framebuffer_width, int framebuffer_height) const;

  unsigned program_ = 0, vao_ = 0, vertices_ = 0, indices_ = 0;
  int projection_ = -1, texture_ = -1, white_uv_ = -1;
};

}  // namespace neuralpath::web
