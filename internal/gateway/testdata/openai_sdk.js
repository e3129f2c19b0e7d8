// Drives assay's OpenAI-compatible routes with the official `openai` npm
// package, as a user would: only baseURL and apiKey changed. Prints one
// JSON object of what it saw; TestChatNodeOpenAI checks it.
// Environment: OPENAI_PKG (the package's directory), BASE_URL, API_KEY.
const mod = require(process.env.OPENAI_PKG);
const OpenAI = mod.OpenAI || mod.default || mod;

async function main() {
  const client = new OpenAI({ baseURL: process.env.BASE_URL, apiKey: process.env.API_KEY, maxRetries: 0 });
  const out = {};
  out.models = (await client.models.list()).data.map((m) => m.id);

  const messages = [{ role: "user", content: "What is the warranty on the X200?" }];
  const c = await client.chat.completions.create({ model: "gpt-4o-mini", messages });
  const m = c.choices[0].message;
  out.completion = { content: m.content, finish: c.choices[0].finish_reason, citations: m.citations, annotations: m.annotations, assay: c.assay };

  const stream = await client.chat.completions.create({ model: "gpt-4o-mini", messages, stream: true, stream_options: { include_usage: true } });
  const s = { content: "", finish: null, citations: null, annotations: null, stages: [], usage: null };
  for await (const chunk of stream) {
    if (chunk.usage) s.usage = chunk.usage;
    if (chunk.assay && chunk.assay.stage) s.stages.push(chunk.assay.stage.stage);
    const choice = chunk.choices[0];
    if (!choice) continue;
    if (choice.delta.content) s.content += choice.delta.content;
    if (choice.finish_reason) {
      s.finish = choice.finish_reason;
      s.citations = choice.delta.citations;
      s.annotations = choice.delta.annotations;
    }
  }
  out.stream = s;

  // A follow-up: the whole assistant message goes back, extensions and all.
  const f = await client.chat.completions.create({
    model: "gpt-4o-mini",
    messages: [...messages, m, { role: "user", content: "and for the K50?" }],
  });
  out.followUp = { content: f.choices[0].message.content, assay: f.assay };

  try {
    await new OpenAI({ baseURL: process.env.BASE_URL, apiKey: "wrong-key", maxRetries: 0 }).chat.completions.create({ model: "x", messages });
    out.error = "no error";
  } catch (e) {
    out.error = { name: e.constructor.name, status: e.status, type: e.type, code: e.code, param: e.param };
  }
  console.log(JSON.stringify(out));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
