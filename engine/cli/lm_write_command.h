// lm_write_command.h: writing text with a language model from the command line (engine/core/lm/decode).
//
//   lm generate --model M --prompt TEXT [--tokens N] [--temperature T] [--top-k K] [--top-p P]
//               [--seed S] [--cache on|off]
//       {"text", "tokens": [{text, id}]}: the loop the lesson page runs, to the end; --cache off
//       re-reads every token at every step (the same text)
//   lm next --model M --prompt TEXT [--temperature T] [--top-k K] [--top-p P] [--seed S] [--top N]
//       {"prompt_tokens", "healed", "stages": [{"stage": "model"|"temperature"|"top_k"|"top_p",
//        "kept", "top": [{text, id, p}]}], "drawn": {text, id, u}}: the next token's distribution
//        after each filter (the N most likely of each), and the token the seed draws
//   lm cache --model M [--tokens T] [--kv-heads G] [--bytes B] [--time ROUNDS] [--prompt TEXT]
//       {"layers", "heads", "kv_heads", "head_dim", "bytes_per_number", "tokens",
//        "per_head_per_token", "per_layer_per_token", "per_token", "total",
//        "grouped": [{kv_heads, per_token, total}], "time"?: {...}}: the cache's memory
//        (kv_memory.h) and, with --time, the greedy continuation of the prompt to the context's end
//        timed with and without the cache (cache_race.h), fastest of ROUNDS
#pragma once

#include <string>
#include <vector>

namespace neuralpath::cli {

int lm_generate(const std::vector<std::string>& args, std::string& out);
int lm_next(const std::vector<std::string>& args, std::string& out);
int lm_cache(const std::vector<std::string>& args, std::string& out);

}  // namespace neuralpath::cli
