/**
 * A tiny OpenAI-wire server on 127.0.0.1 for `eval:extract --llm` without a real model: it answers
 * every `POST …/chat/completions` with an empty extraction (`{"entries": []}`) and counts the requests
 * and whether any carried one of the set's secrets. It checks the wiring (the LLM path is taken, the
 * requests are well formed, secrets are not sent), never extraction quality.
 */
import { createServer } from 'node:http';

export async function startStub(secrets = []) {
  const seen = { requests: 0, secretsSent: 0, bad: 0 };
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error' } }));
        return;
      }
      seen.requests += 1;
      let body = {};
      try {
        body = JSON.parse(raw);
      } catch {
        seen.bad += 1;
      }
      if (!Array.isArray(body.messages)) seen.bad += 1;
      seen.secretsSent += secrets.filter((s) => raw.includes(s)).length;
      const content = JSON.stringify({ entries: [] });
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: `chatcmpl-eval-${seen.requests}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body.model ?? 'eval-stub',
          choices: [
            { index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop', logprobs: null },
          ],
          usage: {
            prompt_tokens: Math.ceil(raw.length / 4),
            completion_tokens: 4,
            total_tokens: Math.ceil(raw.length / 4) + 4,
          },
        }),
      );
    });
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/v1`, seen, close: () => new Promise((ok) => server.close(ok)) };
}
