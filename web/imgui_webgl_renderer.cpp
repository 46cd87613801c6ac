// imgui_webgl_renderer.cpp: Dear ImGui's draw data through WebGL2 (imgui_webgl_renderer.h).
#include "imgui_webgl_renderer.h"

#include <GLES3/gl3.h>
#include <imgui.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>

namespace neuralpath::web {

namespace {

// The backend's shaders for GLSL ES 3.00, plus the solid-fill mark.
constexpr const char* kVertexShader = R"(#version 300 es
precision highp float;
layout (location = 0) in vec2 Position;
layout (location = 1) in vec2 UV;
layout (location = 2) in vec4 Color;
uniform mat4 ProjMtx;
uniform vec2 WhiteUv;
out vec2 Frag_UV;
out vec4 Frag_Color;
out float Frag_Solid;
void main() {
  Frag_UV = UV;
  Frag_Color = Color;
  Frag_Solid = UV == WhiteUv ? 1.0 : 0.0;  // a solid fill: every vertex of it has this UV
  gl_Position = ProjMtx * vec4(Position.xy, 0.0, 1.0);
}
)";

constexpr const char* kFragmentShader = R"(#version 300 es
precision mediump float;
uniform sampler2D Texture;
in vec2 Frag_UV;
in vec4 Frag_Color;
in float Frag_Solid;
layout (location = 0) out vec4 Out_Color;
void main() {
  // The atlas holds coverage alone, in red (web/main.cpp, upload_font_texture): a texel is
  // (1, 1, 1, coverage), as ImGui's white RGBA atlas would give. The white pixel's coverage is 1,
  // so a solid fill is the colour alone, without the fetch.
  if (Frag_Solid > 0.5) Out_Color = Frag_Color;
  else Out_Color = Frag_Color * vec4(1.0, 1.0, 1.0, texture(Texture, Frag_UV.st).r);
}
)";

GLuint compile(GLenum kind, const char* source) {
  const GLuint shader = glCreateShader(kind);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok != GL_TRUE) {
    char log[512] = {};
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    std::fprintf(stderr, "neuralpath: the ImGui %s shader did not compile: %s\n",
                 kind == GL_VERTEX_SHADER ? "vertex" : "fragment", log);
    glDeleteShader(shader);
    return 0;
  }
  return shader;
}

}  // namespace

bool ImGuiWebGLRenderer::create() {
  const GLuint vertex = compile(GL_VERTEX_SHADER, kVertexShader);
  const GLuint fragment = compile(GL_FRAGMENT_SHADER, kFragmentShader);
  if (!vertex || !fragment) {
    if (vertex) glDeleteShader(vertex);
    if (fragment) glDeleteShader(fragment);
    return false;
  }
  program_ = glCreateProgram();
  glAttachShader(program_, vertex);
  glAttachShader(program_, fragment);
  glLinkProgram(program_);
  glDeleteShader(vertex);
  glDeleteShader(fragment);
  GLint linked = GL_FALSE;
  glGetProgramiv(program_, GL_LINK_STATUS, &linked);
  if (linked != GL_TRUE) {
    std::fprintf(stderr, "neuralpath: the ImGui shader program did not link\n");
    glDeleteProgram(program_);
    program_ = 0;
    return false;
  }
  projection_ = glGetUniformLocation(program_, "ProjMtx");
  texture_ = glGetUniformLocation(program_, "Texture");
  white_uv_ = glGetUniformLocation(program_, "WhiteUv");

  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vertices_);
  glGenBuffers(1, &indices_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vertices_);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, indices_);  // part of the VAO's state
  const auto stride = static_cast<GLsizei>(sizeof(ImDrawVert));
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<const void*>(offsetof(ImDrawVert, pos)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<const void*>(offsetof(ImDrawVert, uv)));
  glEnableVertexAttribArray(2);
  glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride,
                        reinterpret_cast<const void*>(offsetof(ImDrawVert, col)));
  glBindVertexArray(0);
  return true;
}

void ImGuiWebGLRenderer::forget() { program_ = vao_ = vertices_ = indices_ = 0; }

void ImGuiWebGLRenderer::set_up(const ImDrawData* data, int framebuffer_width, int framebuffer_height) const {
  glEnable(GL_BLEND);
  glBlendEquation(GL_FUNC_ADD);
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  glDisable(GL_CULL_FACE);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_STENCIL_TEST);
  glEnable(GL_SCISSOR_TEST);
  glViewport(0, 0, framebuffer_width, framebuffer_height);
  // Display coordinates (top left = DisplayPos) to clip space, y down.
  const float l = data->DisplayPos.x, r = data->DisplayPos.x + data->DisplaySize.x;
  const float t = data->DisplayPos.y, b = data->DisplayPos.y + data->DisplaySize.y;
  const float ortho[16] = {2.0f / (r - l),    0, 0,   0, 0, 2.0f / (t - b), 0, 0, 0, 0, -1.0f, 0, (r + l) / (l - r),
                           (t + b) / (b - t), 0, 1.0f};
  glUseProgram(program_);
  glUniform1i(texture_, 0);
  glUniformMatrix4fv(projection_, 1, GL_FALSE, ortho);
  const ImVec2 white = ImGui::GetIO().Fonts->TexUvWhitePixel;
  glUniform2f(white_uv_, white.x, white.y);
  glActiveTexture(GL_TEXTURE0);
  glBindVertexArray(vao_);
}

namespace {

// Whether a command reaches into `area`, and where: the scissor in GL's framebuffer pixels
// (y up), around the pixels a full redraw gives the command there (command_pixels).
struct Scissor {
  int x = 0, y = 0, width = 0, height = 0;
};
bool scissor_for(const ImDrawCmd& cmd, const ImDrawData* data, const PixelRect& area, int framebuffer_width,
                 int framebuffer_height, Scissor& out) {
  const PixelRect r = command_pixels(cmd, *data, area, framebuffer_width, framebuffer_height);
  if (r.empty()) return false;
  out = {r.x0, framebuffer_height - r.y1, r.x1 - r.x0, r.y1 - r.y0};
  return true;
}

}  // namespace

void ImGuiWebGLRenderer::render(const ImDrawData* data, const PixelRect& area, const ImVec4& clear) {
  const int width = static_cast<int>(data->DisplaySize.x * data->FramebufferScale.x);
  const int height = static_cast<int>(data->DisplaySize.y * data->FramebufferScale.y);
  if (width <= 0 || height <= 0 || area.empty() || (!program_ && !create())) return;
  set_up(data, width, height);
  // Only `area` is drawn again: cleared, then every command that reaches into it, cut to it.
  glScissor(area.x0, height - area.y1, area.x1 - area.x0, area.y1 - area.y0);
  glClearColor(clear.x, clear.y, clear.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  const GLenum index_type = sizeof(ImDrawIdx) == 2 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_INT;
  Scissor scissor;
  for (int n = 0; n < data->CmdListsCount; ++n) {
    const ImDrawList* list = data->CmdLists[n];
    bool uploaded = false;  // a list none of whose commands reach into `area` is not sent at all
    for (const ImDrawCmd& cmd : list->CmdBuffer) {
      if (cmd.UserCallback) {
        if (cmd.UserCallback == ImDrawCallback_ResetRenderState)
          set_up(data, width, height);
        else
          cmd.UserCallback(list, &cmd);
        continue;
      }
      if (!scissor_for(cmd, data, area, width, height, scissor)) continue;
      if (!uploaded) {
        glBufferData(GL_ARRAY_BUFFER,
                     static_cast<GLsizeiptr>(list->VtxBuffer.Size) * static_cast<GLsizeiptr>(sizeof(ImDrawVert)),
                     list->VtxBuffer.Data, GL_STREAM_DRAW);
        glBufferData(GL_ELEMENT_ARRAY_BUFFER,
                     static_cast<GLsizeiptr>(list->IdxBuffer.Size) * static_cast<GLsizeiptr>(sizeof(ImDrawIdx)),
                     list->IdxBuffer.Data, GL_STREAM_DRAW);
        uploaded = true;
      }
      // WebGL2 has no base vertex, so the backend never sets RendererHasVtxOffset and VtxOffset
      // is always 0.
      glScissor(scissor.x, scissor.y, scissor.width, scissor.height);
      glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(reinterpret_cast<std::intptr_t>(cmd.TextureId)));
      glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(cmd.ElemCount), index_type,
                     reinterpret_cast<const void*>(static_cast<std::uintptr_t>(cmd.IdxOffset) * sizeof(ImDrawIdx)));
    }
  }
  glBindVertexArray(0);
  glDisable(GL_SCISSOR_TEST);
}

}  // namespace neuralpath::web
