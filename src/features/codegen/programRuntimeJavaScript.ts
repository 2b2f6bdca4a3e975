// A notebook as a JavaScript program (an ES module for Node 20+): the functions every such program
// starts with. They read an answer as the notebook does (a stream assembled as
// notebook/llmStream.ts does, a model's answer as notebook/llmAnswer.ts reads it) and check a `??`
// line as notebook/assertions.ts does, so a program is green exactly when its notebook is. Laid out
// as prettier's defaults leave it.

/** Reading answers, checks, the exit status. */
export const JAVASCRIPT_RUNTIME = `const failed = [];
let checked = 0;

/** A value as a {{reference}} writes it: a string as it is, anything else as JSON. */
function asText(value) {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function walk(value, path) {
  for (const key of path) {
    if (Array.isArray(value) && key === "length") value = value.length;
    else if (Array.isArray(value) && typeof key === "number")
      value = value[key];
    else if (
      value !== null &&
      typeof value === "object" &&
      !Array.isArray(value) &&
      Object.hasOwn(value, key)
    )
      value = value[key];
    else return undefined;
  }
  return value;
}

/** A streamed answer (chat chunks or Responses API events) as one answer. */
function assembled(events) {
  const answer = { content: "", finishReason: null, events: events.length };
  const calls = [];
  for (const event of events) {
    if (typeof event.type === "string") {
      if (event.type === "response.output_text.delta")
        answer.content += event.delta ?? "";
      else if (
        event.type === "response.output_item.done" &&
        event.item?.type === "function_call"
      )
        calls.push({
          function: { name: event.item.name, arguments: event.item.arguments },
        });
      else if (
        event.type === "response.completed" ||
        event.type === "response.incomplete"
      ) {
        answer.finishReason = event.response.status;
        if (event.response.usage) answer.usage = event.response.usage;
      }
      continue;
    }
    if (event.usage) answer.usage = event.usage;
    const choice = (event.choices ?? []).find((c) => !c.index);
    if (!choice) continue;
    answer.finishReason = choice.finish_reason ?? answer.finishReason;
    for (const piece of choice.delta?.tool_calls ?? []) {
      const call = (calls[piece.index ?? 0] ??= {
        function: { name: "", arguments: "" },
      });
      call.function.name += piece.function?.name ?? "";
      call.function.arguments += piece.function?.arguments ?? "";
    }
    answer.content += choice.delta?.content ?? "";
  }
  if (calls.length) answer.tool_calls = calls;
  return answer;
}

function args(text) {
  try {
    return JSON.parse(text || "{}");
  } catch {
    return text;
  }
}

function usageOf(usage) {
  if (!usage) return undefined;
  const prompt = usage.prompt_tokens ?? usage.input_tokens;
  const completion = usage.completion_tokens ?? usage.output_tokens;
  const total = usage.total_tokens ?? (prompt ?? 0) + (completion ?? 0);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: total,
    input_tokens: prompt,
    output_tokens: completion,
  };
}

/** What a model answered, as the notebook's checks read it (text, tool_calls, usage). */
function modelAnswer(result) {
  const answer = result.json;
  if (answer === null || typeof answer !== "object") return undefined;
  if (answer.object === "response") {
    const output = answer.output ?? [];
    return {
      content: output
        .filter((o) => o.type === "message")
        .flatMap((o) => o.content)
        .map((c) => c.text ?? "")
        .join(""),
      tool_calls: output
        .filter((o) => o.type === "function_call")
        .map((c) => ({ name: c.name, arguments: args(c.arguments) })),
      usage: usageOf(answer.usage),
    };
  }
  if (!answer.choices && !("content" in answer)) return undefined;
  const message = answer.choices ? (answer.choices[0]?.message ?? {}) : answer;
  return {
    content: message.content ?? "",
    tool_calls: (message.tool_calls ?? []).map((c) => ({
      name: c.function.name,
      arguments: args(c.function.arguments),
    })),
    usage: usageOf(answer.usage),
  };
}

/** \`.json.a[0]\`, \`.status\`, \`.headers.x\`, \`.text\`… of a cell's answer, as the notebook reads it. */
function part(result, name, path) {
  if (name === "tool_calls" || name === "usage") {
    const answer = modelAnswer(result);
    return answer ? walk(answer[name], path) : undefined;
  }
  if (name === "text") return modelAnswer(result)?.content ?? result.body;
  if (name === "count" && result.count === undefined)
    return Array.isArray(result.json) ? result.json.length : undefined;
  if (name === "headers") return result.headers[path[0]];
  return walk(result[name], path);
}

function unquote(value) {
  return /^"(.*)"$|^'(.*)'$/s.test(value) ? value.slice(1, -1) : value;
}

function number(value) {
  if (typeof value === "number") return value;
  if (typeof value !== "string" || value.trim() === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

function equals(actual, value) {
  const text = unquote(value);
  if (typeof actual === "string") return actual === text;
  if (typeof actual === "number") return number(text) === actual;
  if (typeof actual === "boolean" || actual === null)
    return String(actual) === text;
  try {
    return JSON.stringify(actual) === JSON.stringify(JSON.parse(value));
  } catch {
    return false;
  }
}

function passes(actual, operator, value) {
  if (operator === "exists") return actual !== undefined;
  if (actual === undefined) return operator === "!=";
  switch (operator) {
    case "==":
      return equals(actual, value);
    case "!=":
      return !equals(actual, value);
    case "<":
    case "<=":
    case ">":
    case ">=": {
      const a = number(actual);
      const b = number(unquote(value));
      if (a === undefined || b === undefined) return false;
      return { "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b }[operator];
    }
    case "contains":
      if (Array.isArray(actual))
        return actual.some((item) => equals(item, value));
      if (actual !== null && typeof actual === "object")
        return Object.hasOwn(actual, unquote(value));
      return asText(actual).includes(unquote(value));
    case "matches": {
      const slash = value.lastIndexOf("/");
      return new RegExp(value.slice(1, slash), value.slice(slash + 1)).test(
        asText(actual),
      );
    }
  }
  return false;
}

/** One \`??\` check: printed with what was expected and what came, and remembered when it fails. */
function check(cell, source, actual, operator, value) {
  const passed = passes(actual, operator, value);
  const expected = operator === "exists" ? operator : \`\${operator} \${value}\`;
  const shown =
    actual === undefined ? "(missing)" : asText(actual).slice(0, 300);
  console.log(\`\${passed ? "ok" : "FAILED"} \${cell}: \${source}\`);
  if (!passed) {
    console.log(\`    expected \${expected}, actual \${shown}\`);
    failed.push(\`\${cell}: \${source}\`);
  }
  checked++;
}

function skipped(cell, why) {
  console.log(\`skipped \${cell}: \${why}\`);
}

/** Sets a non-zero exit code when a check failed, naming each. */
function finish() {
  if (failed.length) {
    console.log(\`\${failed.length} of \${checked} checks failed:\`);
    for (const f of failed) console.log(\`    \${f}\`);
    process.exitCode = 1;
  } else console.log(\`all \${checked} checks passed\`);
}
`;

/** Plain HTTP through fetch. */
export const JAVASCRIPT_SEND = `/** Sends one request; its answer as the notebook keeps it (a stream assembled). */
async function send({ cell, method, url, headers, body }) {
  const started = performance.now();
  const response = await fetch(url, { method, headers, body });
  const result = {
    status: response.status,
    headers: Object.fromEntries(response.headers),
  };
  if (
    (response.headers.get("content-type") ?? "").startsWith("text/event-stream")
  ) {
    const events = [];
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of response.body) {
      result.ttft ??= performance.now() - started;
      buffer += decoder.decode(chunk, { stream: true });
      const lines = buffer.split("\\n");
      buffer = lines.pop();
      for (const line of lines) {
        const data = line.startsWith("data:") ? line.slice(5).trim() : "[DONE]";
        if (data !== "[DONE]") events.push(JSON.parse(data));
      }
    }
    result.json = assembled(events);
    result.body = result.json.content;
  } else {
    result.body = await response.text();
    try {
      result.json = JSON.parse(result.body);
    } catch {
      // Not JSON: the checks read the body as text.
    }
  }
  result.duration = performance.now() - started;
  console.log(\`\${cell}: \${method} \${url.split("?")[0]} -> \${response.status}\`);
  return result;
}
`;

/** The openai SDK's calls, read as answers. */
export const JAVASCRIPT_OPENAI = `/** Calls the openai SDK; its answer as the notebook keeps it (a stream assembled). */
async function sdkCall(cell, request) {
  const started = performance.now();
  const result = {};
  let answer;
  try {
    const { data, response } = await request.withResponse();
    Object.assign(result, {
      status: response.status,
      headers: Object.fromEntries(response.headers),
    });
    answer = data;
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
    Object.assign(result, {
      status: error.status,
      headers: Object.fromEntries(error.headers ?? []),
    });
    answer = error.error;
  }
  if (answer && typeof answer.getNextPage === "function") {
    result.json = { object: "list", data: answer.data };
  } else if (answer && typeof answer[Symbol.asyncIterator] === "function") {
    const events = [];
    for await (const chunk of answer) {
      result.ttft ??= performance.now() - started;
      events.push(chunk);
    }
    result.json = assembled(events);
  } else result.json = answer;
  result.body = result.json?.content ?? asText(result.json);
  result.duration = performance.now() - started;
  console.log(\`\${cell}: \${result.status}\`);
  return result;
}
`;

/** Pusher's server SDK's calls, read as answers. */
export const JAVASCRIPT_PUSHER = `/** Calls Pusher's server SDK; its answer as the notebook keeps it. */
async function pusherCall(cell, request) {
  const started = performance.now();
  const response = await request;
  const body = await response.text();
  console.log(\`\${cell}: \${response.status}\`);
  return {
    status: response.status,
    headers: {},
    body,
    json: body ? JSON.parse(body) : {},
    duration: performance.now() - started,
  };
}
`;

/** Subscribing through pusher-js. */
export const JAVASCRIPT_LISTEN = `/** Listens on a channel (pusher-js) from now on; \`done\` holds what arrived when the time is up. */
async function listen(cell, client, channel, durationMs) {
  const messages = [];
  const subscription = client.subscribe(channel);
  subscription.bind_global((event, data) => {
    if (!event.startsWith("pusher:")) messages.push({ channel, event, data });
  });
  await new Promise((resolve) =>
    subscription.bind("pusher:subscription_succeeded", resolve),
  );
  console.log(\`\${cell}: listening on \${channel}\`);
  const done = new Promise((resolve) => setTimeout(resolve, durationMs)).then(
    () => {
      client.unsubscribe(channel);
      return {
        status: 200,
        headers: {},
        json: messages,
        body: asText(messages),
        count: messages.length,
      };
    },
  );
  return { done };
}
`;
