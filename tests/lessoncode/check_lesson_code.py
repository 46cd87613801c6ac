#!/usr/bin/env python3
"""Runs a lesson's PyTorch code block on the lesson's own model and sentence and compares its
numbers with the app's engine (`neuralpath-cli trace`), so the code a learner reads computes
what the widgets show.

    check_lesson_code.py --cli CLI --model-json TOOL LESSON.md BLOCK_ID
    check_lesson_code.py --model-json TOOL --coverage REGISTERED LESSON.md...

The model (every weight, the seeded ones included) comes from TOOL (lesson-model-json), the
engine's numbers from CLI. Each checked block has one function in CHECKS; --coverage fails when
a Python block in a lesson has none, or has one that CMake does not run (REGISTERED is the
comma-separated "file.md:block" list CMake registers). Exit 0 = every number agrees.
"""
import argparse
import contextlib
import io
import json
import os
import re
import subprocess
import sys

TOLERANCE = 1e-4  # float32 on both sides; LayerNorm and softmax keep errors near 1e-6


class Mismatch(Exception):
    pass


def run_json(args):
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        raise Mismatch(f"{' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}")
    return json.loads(done.stdout)


def lesson_dump(tool, lesson):
    return run_json([tool, lesson])


def engine_trace(cli, lesson, sentence, causal):
    return run_json([cli, "trace", "--lesson", lesson, "--sentence", sentence,
                     "--mask", "causal" if causal else "none"])


def code_of(dump, block_id):
    for block in dump["code_blocks"]:
        if block["id"] == block_id:
            return block
    raise Mismatch(f"no code block '{block_id}' in lesson '{dump['lesson']}'")


def run_block(block):
    """Executes the block as a module would be; returns its namespace and what it printed."""
    namespace = {"__name__": "lesson_block_" + block["id"].replace("-", "_")}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile("\n".join(block["lines"]) + "\n", block["id"], "exec"), namespace)
    return namespace, printed.getvalue()


def steps_of(trace, kind):
    return [s for s in trace["steps"] if s["kind"] == kind]


def compare(what, ours, engine):
    import torch
    engine = torch.tensor(engine, dtype=torch.float32)
    ours = ours.detach().to(torch.float32)
    if tuple(ours.shape) != tuple(engine.shape):
        raise Mismatch(f"{what}: the code gives shape {tuple(ours.shape)}, the engine {tuple(engine.shape)}")
    diff = (ours - engine).abs().max().item() if ours.numel() else 0.0
    print(f"  {what}: max |code - engine| = {diff:.2e}")
    if not diff <= TOLERANCE:
        raise Mismatch(f"{what} differs from the engine by {diff:.4f} (code {ours.tolist()}, engine {engine.tolist()})")


def tensor(rows):
    import torch
    return torch.tensor(rows, dtype=torch.float32)


def require_plain_norms(model):
    """F.layer_norm without weights means gain 1, shift 0, eps 1e-5: the model must agree."""
    d = model["d_model"]
    for name in ("norm_attention", "norm_feed_forward"):
        n = model[name]
        if n["gamma"] != [1.0] * d or n["beta"] != [0.0] * d or abs(n["eps"] - 1e-5) > 1e-12:
            raise Mismatch(f"the lesson's {name} has its own gain/shift/eps; the code's F.layer_norm assumes none")


# [SECTION] self-attention.md: pytorch-head --------------------------------------------------------

def check_self_attention_head(lesson, dump, cli):
    import torch
    namespace, printed = run_block(code_of(dump, "pytorch-head"))
    if "torch.Size([1, 4, 8])" not in printed:
        raise Mismatch(f"the block's own demo printed {printed!r}, not the shape its comment promises")
    model = dump["model"]
    layer = model["attention"]
    if layer["heads"] != 1:
        raise Mismatch("SelfAttention is one head; the lesson's shown layer has " + str(layer["heads"]))
    d = model["d_model"]
    head = namespace["SelfAttention"](d_model=d, d_k=d)
    with torch.no_grad():  # nn.Linear computes x @ weight.T, so weight = W.T
        head.to_q.weight.copy_(tensor(layer["W_Q"]).T)
        head.to_k.weight.copy_(tensor(layer["W_K"]).T)
        head.to_v.weight.copy_(tensor(layer["W_V"]).T)

    cases = [(s["sentence"], s["causal"]) for s in dump["sentences"]["mask_steps"] + dump["sentences"]["heatmap"]]
    for spotlight in dump["sentences"]["spotlight"]:
        cases += [(s, False) for s in spotlight["sentences"]]  # the spotlight runs without a mask
    if not cases:
        raise Mismatch("the lesson has no widget sentence to run the code on")
    for sentence, causal in cases:
        trace = engine_trace(cli, lesson, sentence, causal)
        print(f"'{sentence}' ({'causal' if causal else 'no mask'}):")
        x = tensor(steps_of(trace, "project_q")[0]["inputs"][0]["values"])  # what the shown layer reads
        out, weights = head(x.unsqueeze(0), causal=causal)
        compare("attention weights", weights[0], trace["attention"]["weights"][0])
        compare("blended values", out[0], steps_of(trace, "blend")[0]["result"]["values"])


# [SECTION] course-playback.md: block-code --------------------------------------------------------

# What each playback step's highlighted lines must be about (a moved line fails here).
STEP_LINES = {
    "tokens": r"tokens", "embedding": r"torch\.stack", "positions": r"pos|pe|angle",
    "qkv": r"W_Q|W_K|W_V|heads|view", "scores": r"k\.transpose", "scale": r"sqrt",
    "mask": r"future|masked_fill", "softmax": r"softmax", "blend": r"@ v",
    "heads": r"reshape", "output": r"W_O", "residual": r"\+", "layer-norm": r"layer_norm",
    "feed-forward": r"W1|W2", "next-token": r"logits",
}


def check_step_lines(block, playback_steps):
    for step in playback_steps:
        lines = block["steps"].get(step)
        if not lines:
            raise Mismatch(f"the playback step '{step}' highlights no line of '{block['id']}'")
        for n in lines:
            text = block["lines"][n - 1]
            if not re.search(STEP_LINES[step], text):
                raise Mismatch(f"step '{step}' highlights line {n} ({text.strip()!r}), which is not about it")


def check_block_code(lesson, dump, cli):
    import torch
    import torch.nn.functional as F
    block = code_of(dump, "block-code")
    playback = dump["playback"]
    model = dump["model"]
    if playback is None or playback["code"] != "block-code":
        raise Mismatch("block-code must be the code of the lesson's playback")
    check_step_lines(block, [s for s in block["steps"]])
    if model["context"] or not model["feed_forward"]["enabled"]:
        raise Mismatch("block_forward has no context layers and always runs the feed-forward")
    if playback["heads"] not in (0, model["attention"]["heads"]):
        raise Mismatch("the playback's heads differ from the weights' heads: the trace would not be the board")
    if not playback["causal"]:
        raise Mismatch("block_forward always applies the causal mask; the playback runs without one")
    require_plain_norms(model)

    namespace, _ = run_block(block)
    vocab = {w: tensor(v) for w, v in model["words"].items()}
    ffn = model["feed_forward"]
    layer = model["attention"]
    p = {"W_Q": tensor(layer["W_Q"]), "W_K": tensor(layer["W_K"]), "W_V": tensor(layer["W_V"]),
         "W_O": tensor(layer["W_O"]), "W1": tensor(ffn["W1"]), "b1": tensor(ffn["b1"]),
         "W2": tensor(ffn["W2"]), "b2": tensor(ffn["b2"]), "E": tensor(model["unembedding"])}

    # Record what the code computes on the way: each softmax and each LayerNorm, in order.
    softmaxes, norms = [], []
    real_softmax, real_layer_norm = torch.Tensor.softmax, F.layer_norm

    def recording_softmax(self, *args, **kwargs):
        out = real_softmax(self, *args, **kwargs)
        softmaxes.append(out)
        return out

    def recording_layer_norm(*args, **kwargs):
        out = real_layer_norm(*args, **kwargs)
        norms.append(out)
        return out

    torch.Tensor.softmax, F.layer_norm = recording_softmax, recording_layer_norm
    try:
        probabilities = namespace["block_forward"](playback["sentence"], vocab, p, heads=layer["heads"],
                                                   temperature=model["temperature"])
    finally:
        torch.Tensor.softmax, F.layer_norm = real_softmax, real_layer_norm

    trace = engine_trace(cli, lesson, playback["sentence"], True)
    print(f"'{playback['sentence']}' (causal, {layer['heads']} heads):")
    positions = steps_of(trace, "positions")[0]
    T, d = len(trace["tokens"]), model["d_model"]
    compare("position code", model["positional_scale"] * namespace["positional_encoding"](T, d),
            positions["inputs"][1]["values"])
    if len(softmaxes) != 2 or len(norms) != 2:
        raise Mismatch(f"expected 2 softmaxes and 2 LayerNorms, the code ran {len(softmaxes)} and {len(norms)}")
    compare("attention weights (all heads)", softmaxes[0], trace["attention"]["weights"])
    ln = steps_of(trace, "layer_norm")
    compare("LayerNorm after attention", norms[0], ln[0]["result"]["values"])
    compare("LayerNorm after feed-forward", norms[1], ln[1]["result"]["values"])
    compare("next-word probabilities", probabilities, steps_of(trace, "next_token")[0]["result"]["values"][0])

    # The training sentences end with a full stop ("AI agents build future."): the code's
    # tokenizer must split it off as the engine does, or vocab["future."] fails.
    if not dump["corpus"]:
        raise Mismatch("the lesson has no corpus sentence to run the code on")
    for sentence in dump["corpus"]:
        trace = engine_trace(cli, lesson, sentence, True)
        try:
            probabilities = namespace["block_forward"](sentence, vocab, p, heads=layer["heads"],
                                                       temperature=model["temperature"])
        except KeyError as e:
            raise Mismatch(f"block_forward cannot tokenize the corpus sentence {sentence!r}: no word {e}")
        compare(f"next-word probabilities for {sentence!r}", probabilities,
                steps_of(trace, "next_token")[0]["result"]["values"][0])


# [SECTION] course-playback.md: layer-norm-placement ----------------------------------------------

def lesson_sublayers(model, causal):
    """The lesson's attention and feed-forward as callables on a (T, d) tensor."""
    import torch
    layer, ffn = model["attention"], model["feed_forward"]
    W_Q, W_K, W_V, W_O = (tensor(layer[k]) for k in ("W_Q", "W_K", "W_V", "W_O"))
    W1, b1, W2, b2 = (tensor(ffn[k]) for k in ("W1", "b1", "W2", "b2"))
    heads = layer["heads"]

    def attention(x):
        T, d = x.shape
        dh = d // heads
        q, k, v = ((x @ W).view(T, heads, dh).transpose(0, 1) for W in (W_Q, W_K, W_V))
        scores = q @ k.transpose(-2, -1) / dh ** 0.5
        if causal:
            scores = scores.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
        return (scores.softmax(dim=-1) @ v).transpose(0, 1).reshape(T, d) @ W_O

    def ffn_call(x):
        return torch.relu(x @ W1 + b1) @ W2 + b2

    return attention, ffn_call


def torch_encoder_layer(model, norm_first):
    """torch.nn.TransformerEncoderLayer holding the lesson's weights (dropout off)."""
    import torch
    layer, ffn = model["attention"], model["feed_forward"]
    d = model["d_model"]
    tel = torch.nn.TransformerEncoderLayer(d, layer["heads"], dim_feedforward=len(ffn["b1"]), dropout=0.0,
                                           activation="relu", batch_first=True, norm_first=norm_first)
    with torch.no_grad():
        tel.self_attn.in_proj_weight.copy_(torch.cat([tensor(layer[k]).T for k in ("W_Q", "W_K", "W_V")]))
        tel.self_attn.in_proj_bias.zero_()
        tel.self_attn.out_proj.weight.copy_(tensor(layer["W_O"]).T)
        tel.self_attn.out_proj.bias.zero_()
        tel.linear1.weight.copy_(tensor(ffn["W1"]).T)
        tel.linear1.bias.copy_(tensor(ffn["b1"]))
        tel.linear2.weight.copy_(tensor(ffn["W2"]).T)
        tel.linear2.bias.copy_(tensor(ffn["b2"]))
    return tel.eval()


def check_layer_norm_placement(lesson, dump, cli):
    import torch
    namespace, _ = run_block(code_of(dump, "layer-norm-placement"))
    model, playback = dump["model"], dump["playback"]
    require_plain_norms(model)
    trace = engine_trace(cli, lesson, playback["sentence"], playback["causal"])
    print(f"'{playback['sentence']}':")
    x = tensor(steps_of(trace, "positions")[0]["result"]["values"])  # the block's input
    attention, ffn = lesson_sublayers(model, playback["causal"])
    compare("the test's attention sublayer", attention(x), steps_of(trace, "output_projection")[0]["result"]["values"])

    post = namespace["post_ln_block"](x, attention, ffn)
    compare("post_ln_block vs the engine's block output", post, steps_of(trace, "layer_norm")[-1]["result"]["values"])

    # The engine is post-LN only, so pre_ln_block is checked against PyTorch's own layer with
    # norm_first=True, after the same layer with norm_first=False is shown to match the engine.
    T = x.shape[0]
    mask = torch.ones(T, T, dtype=torch.bool).triu(1) if playback["causal"] else None
    with torch.no_grad():
        torch_post = torch_encoder_layer(model, False)(x.unsqueeze(0), src_mask=mask)[0]
        torch_pre = torch_encoder_layer(model, True)(x.unsqueeze(0), src_mask=mask)[0]
    compare("TransformerEncoderLayer(norm_first=False) vs the engine", torch_post,
            steps_of(trace, "layer_norm")[-1]["result"]["values"])
    pre = namespace["pre_ln_block"](x, attention, ffn)
    compare("pre_ln_block vs TransformerEncoderLayer(norm_first=True)", pre, torch_pre.tolist())
    if (pre - post).abs().max().item() < 1e-3:
        raise Mismatch("pre-LN and post-LN gave the same output: the comparison would not notice a swap")


# [SECTION] multi-head.md: multi-head-code -----------------------------------------------------

def check_multi_head_code(lesson, dump, cli):
    block = code_of(dump, "multi-head-code")
    model, playback = dump["model"], dump["playback"]
    if playback is None or playback["code"] != "multi-head-code":
        raise Mismatch("multi-head-code must be the code of the lesson's playback")
    check_step_lines(block, [s for s in block["steps"]])
    if model["context"]:
        raise Mismatch("multi_head_attention is the shown layer alone; the lesson has context layers")
    layer = model["attention"]
    heads = layer["heads"]
    if heads < 2:
        raise Mismatch("the lesson's layer should have several heads, it has " + str(heads))
    namespace, _ = run_block(block)
    W = [tensor(layer[k]) for k in ("W_Q", "W_K", "W_V", "W_O")]
    cases = [playback["sentence"]] + [s["sentence"] for s in dump["sentences"]["heatmap"]]
    for sentence in cases:
        trace = engine_trace(cli, lesson, sentence, False)  # the lesson's widgets run without a mask
        print(f"'{sentence}' (no mask, {heads} heads):")
        x = tensor(steps_of(trace, "project_q")[0]["inputs"][0]["values"])  # what the layer reads
        out, weights = namespace["multi_head_attention"](x, *W, heads)
        compare("every head's weights (by hand)", weights, trace["attention"]["weights"])
        compare("output after W_O (by hand)", out, steps_of(trace, "output_projection")[0]["result"]["values"])
        out, weights = namespace["with_torch_module"](x, *W, heads)
        compare("every head's weights (nn.MultiheadAttention)", weights, trace["attention"]["weights"])
        compare("output (nn.MultiheadAttention)", out, steps_of(trace, "output_projection")[0]["result"]["values"])


CHECKS = {
    ("multi-head.md", "multi-head-code"): check_multi_head_code,
    ("self-attention.md", "pytorch-head"): check_self_attention_head,
    ("course-playback.md", "block-code"): check_block_code,
    ("course-playback.md", "layer-norm-placement"): check_layer_norm_placement,
}


def coverage(tool, registered, lessons):
    registered = set(filter(None, registered.split(",")))
    problems = []
    for lesson in lessons:
        dump = lesson_dump(tool, lesson)
        for block in dump["code_blocks"]:
            if block["language"] != "python":
                continue
            key = (os.path.basename(lesson), block["id"])
            name = ":".join(key)
            if key not in CHECKS:
                problems.append(f"{lesson}: the Python block '{block['id']}' has no check in {__file__} (CHECKS)")
            elif name not in registered:
                problems.append(f"{lesson}: the check for '{block['id']}' is not registered in tests/lessoncode/CMakeLists.txt")
            else:
                print(f"{name}: checked")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cli")
    parser.add_argument("--model-json", required=True)
    parser.add_argument("--coverage", metavar="REGISTERED")
    parser.add_argument("lesson", nargs="+")
    args = parser.parse_args()
    try:
        if args.coverage is not None:
            return coverage(args.model_json, args.coverage, args.lesson)
        if len(args.lesson) != 2 or not args.cli:
            parser.error("give --cli, one lesson and one block id")
        lesson, block_id = args.lesson
        try:
            import torch  # noqa: F401
        except ImportError:
            print("python3-torch is missing: install it with `apt-get install python3-torch` "
                  "(./neuralpath test does)", file=sys.stderr)
            return 1
        check = CHECKS.get((os.path.basename(lesson), block_id))
        if check is None:
            print(f"no check for {lesson}:{block_id}", file=sys.stderr)
            return 1
        check(lesson, lesson_dump(args.model_json, lesson), args.cli)
        print("ok: the code computes what the engine computes")
        return 0
    except Mismatch as e:
        print(f"{' '.join(args.lesson)}: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
