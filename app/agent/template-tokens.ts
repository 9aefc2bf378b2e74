/**
 * Chat-template tokens in text that reaches a model as data (docs/assistant.md, "Prompt").
 *
 * The model servers the docs name (llama.cpp's server, vLLM, Ollama) render the messages with the
 * model's chat template and then tokenize the result with special tokens recognised in the text:
 * a page that writes `<|im_end|>\n<|im_start|>system` would end the user's turn and open a system
 * turn of its own, whatever the instructions say. Each such token is rewritten with lookalike
 * delimiters (`‹|im_start|›`, `⟦INST⟧`): still readable by the model and by a person, never the
 * token. Matched as families, not as a list of models, so a new model of a known family is covered.
 */

const FAMILIES = [
  // ChatML and everything shaped like it: <|im_start|>, <|im_end|>, <|endoftext|> (Qwen, Phi,
  // Hermes), <|begin_of_text|>, <|start_header_id|>, <|end_header_id|>, <|eot_id|> (Llama 3),
  // <|system|>, <|user|>, <|assistant|>, <|end|> (Phi-3, Zephyr), <|start|>, <|channel|>,
  // <|message|> (gpt-oss), <|START_OF_TURN_TOKEN|> (Command R), and DeepSeek's full-width
  // <｜User｜>, <｜end▁of▁sentence｜>.
  String.raw`<[|｜][^\s<>|｜]{1,64}[|｜]>`,
  // Llama 2's system block.
  String.raw`<<\/?SYS>>`,
  // Mistral's control tokens.
  String.raw`\[\/?(?:INST|SYSTEM_PROMPT|AVAILABLE_TOOLS|TOOL_CALLS|TOOL_RESULTS|TOOL_CONTENT|THINK|IMG|IMG_BREAK|IMG_END)\]`,
  // SentencePiece's sequence tokens (Llama 2, Mistral), Gemma's turns, and the reasoning and tool
  // tags of Qwen, DeepSeek-R1 and Hermes templates.
  String.raw`<\/?(?:s|unk|pad|bos|eos|start_of_turn|end_of_turn|start_of_image|end_of_image|think|tool_call|tool_response|tools)>`,
];

const TOKEN_RE = new RegExp(FAMILIES.join('|'), 'gi');
const LOOKALIKE: Record<string, string> = { '<': '‹', '>': '›', '[': '⟦', ']': '⟧' };

/** `text` with every chat-template token's delimiters replaced by lookalikes; anything else unchanged. */
export function neutraliseTemplateTokens(text: string): string {
  return text.replace(TOKEN_RE, (token) => token.replace(/[<>[\]]/g, (c) => LOOKALIKE[c]!));
}
