// A notebook as a Python program: the functions every such program starts with. They read an
// answer as the notebook does (a stream assembled as notebook/llmStream.ts does, a model's answer as
// notebook/llmAnswer.ts reads it) and check a `??` line as notebook/assertions.ts does, so a program
// is green exactly when its notebook is. Laid out as black leaves it (test/unit/codegen proves it).
// Edit the Python, not the escaping: each constant is the text of a .py file.

/** Reading answers, checks, the exit status. */
export const PYTHON_RUNTIME = `MISSING = object()
FAILED = []
CHECKED = []


def as_text(value):
    """A value as a {{reference}} writes it: a string as it is, anything else as JSON."""
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))


def walk(value, path):
    for key in path:
        if isinstance(value, list) and key == "length":
            value = len(value)
        elif isinstance(value, list) and isinstance(key, int) and 0 <= key < len(value):
            value = value[key]
        elif isinstance(value, dict) and key in value:
            value = value[key]
        else:
            return MISSING
    return value


def assembled(events):
    """A streamed answer (chat chunks or Responses API events) as one answer."""
    answer = {"content": "", "finishReason": None, "events": len(events)}
    calls = []
    for event in events:
        if "type" in event and isinstance(event["type"], str):
            if event["type"] == "response.output_text.delta":
                answer["content"] += event.get("delta") or ""
            elif event["type"] == "response.output_item.done":
                item = event.get("item") or {}
                if item.get("type") == "function_call":
                    function = {"name": item["name"], "arguments": item["arguments"]}
                    calls.append({"function": function})
            elif event["type"] in ("response.completed", "response.incomplete"):
                answer["finishReason"] = event["response"].get("status")
                if event["response"].get("usage"):
                    answer["usage"] = event["response"]["usage"]
            continue
        if event.get("usage"):
            answer["usage"] = event["usage"]
        choice = next(
            (c for c in event.get("choices") or [] if not c.get("index")), None
        )
        if not choice:
            continue
        answer["finishReason"] = choice.get("finish_reason") or answer["finishReason"]
        delta = choice.get("delta") or {}
        for piece in delta.get("tool_calls") or []:
            index = piece.get("index") or 0
            while len(calls) <= index:
                calls.append({"function": {"name": "", "arguments": ""}})
            function = piece.get("function") or {}
            calls[index]["function"]["name"] += function.get("name") or ""
            calls[index]["function"]["arguments"] += function.get("arguments") or ""
        answer["content"] += delta.get("content") or ""
    if calls:
        answer["tool_calls"] = calls
    return answer


def arguments(text):
    try:
        return json.loads(text or "{}")
    except ValueError:
        return text


def model_answer(result):
    """What a model answered, as the notebook's checks read it (text, tool_calls, usage)."""
    answer = result.get("json")
    if not isinstance(answer, dict):
        return None
    if answer.get("object") == "response":
        output = answer.get("output") or []
        parts = [c for o in output if o["type"] == "message" for c in o["content"]]
        calls = [o for o in output if o["type"] == "function_call"]
        return {
            "content": "".join(c.get("text") or "" for c in parts),
            "tool_calls": [
                {"name": c["name"], "arguments": arguments(c["arguments"])}
                for c in calls
            ],
            "usage": usage_of(answer.get("usage")),
        }
    choices = answer.get("choices")
    if not choices and "content" not in answer:
        return None
    message = choices[0].get("message") or {} if choices else answer
    return {
        "content": message.get("content") or "",
        "tool_calls": [
            {
                "name": c["function"]["name"],
                "arguments": arguments(c["function"].get("arguments")),
            }
            for c in message.get("tool_calls") or []
        ],
        "usage": usage_of(answer.get("usage")),
    }


def usage_of(usage):
    if not usage:
        return MISSING
    prompt = usage.get("prompt_tokens", usage.get("input_tokens"))
    completion = usage.get("completion_tokens", usage.get("output_tokens"))
    total = usage.get("total_tokens", (prompt or 0) + (completion or 0))
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": total,
        "input_tokens": prompt,
        "output_tokens": completion,
    }


def part(result, name, path):
    """\`.json.a[0]\`, \`.status\`, \`.headers.x\`, \`.text\`… of a cell's answer, as the notebook reads it."""
    if name in ("tool_calls", "usage"):
        answer = model_answer(result)
        return walk(answer[name], path) if answer else MISSING
    if name == "text":
        answer = model_answer(result)
        return answer["content"] if answer else result.get("body", MISSING)
    if name == "count" and "count" not in result:
        listed = result.get("json")
        return len(listed) if isinstance(listed, list) else MISSING
    if name == "headers":
        return result["headers"].get(path[0], MISSING)
    return walk(result.get(name, MISSING), path)


def unquote(value):
    quoted = len(value) >= 2 and value[0] == value[-1] and value[0] in "\\"'"
    return value[1:-1] if quoted else value


def number(value):
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return value
    try:
        return float(value) if value.strip() else None
    except (AttributeError, ValueError):
        return None


def equals(actual, value):
    text = unquote(value)
    if isinstance(actual, str):
        return actual == text
    if isinstance(actual, bool) or actual is None:
        return json.dumps(actual) == text
    if isinstance(actual, (int, float)):
        return number(text) == actual
    try:
        return as_text(actual) == as_text(json.loads(value))
    except ValueError:
        return False


def passes(actual, operator, value):
    if operator == "exists":
        return actual is not MISSING
    if actual is MISSING:
        return operator == "!="
    if operator == "==":
        return equals(actual, value)
    if operator == "!=":
        return not equals(actual, value)
    if operator in ("<", "<=", ">", ">="):
        a, b = number(actual), number(unquote(value))
        if a is None or b is None:
            return False
        return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[operator]
    if operator == "contains":
        if isinstance(actual, list):
            return any(equals(item, value) for item in actual)
        if isinstance(actual, dict):
            return unquote(value) in actual
        return unquote(value) in as_text(actual)
    if operator == "matches":
        pattern, _, flags = value[1:].rpartition("/")
        options = sum({"i": re.I, "m": re.M, "s": re.S}.get(f, 0) for f in flags)
        return re.search(pattern, as_text(actual), options) is not None
    return False


def check(cell, source, actual, operator, value):
    """One \`??\` check: printed with what was expected and what came, and remembered when it fails."""
    passed = passes(actual, operator, value)
    expected = operator if operator == "exists" else f"{operator} {value}"
    shown = "(missing)" if actual is MISSING else as_text(actual)[:300]
    print(f"{'ok' if passed else 'FAILED'} {cell}: {source}")
    if not passed:
        print(f"    expected {expected}, actual {shown}")
        FAILED.append(f"{cell}: {source}")
    CHECKED.append(source)


def skipped(cell, why):
    print(f"skipped {cell}: {why}")


def finish():
    """Exits non-zero when a check failed, naming each."""
    if FAILED:
        print(f"{len(FAILED)} of {len(CHECKED)} checks failed:")
        for failed in FAILED:
            print(f"    {failed}")
        sys.exit(1)
    print(f"all {len(CHECKED)} checks passed")
`;

/** Plain HTTP through requests. */
export const PYTHON_SEND = `def send(cell, method, url, headers, body=None, payload=None):
    """Sends one request; its answer as the notebook keeps it (a stream assembled)."""
    started = time.perf_counter()
    response = requests.request(
        method, url, headers=headers, data=body, json=payload, stream=True
    )
    result = {
        "status": response.status_code,
        "headers": {k.lower(): v for k, v in response.headers.items()},
    }
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        events = []
        for line in response.iter_lines():
            data = line.decode("utf-8")
            if data.startswith("data:") and data[5:].strip() != "[DONE]":
                result.setdefault("ttft", (time.perf_counter() - started) * 1000)
                events.append(json.loads(data[5:]))
        result["json"] = assembled(events)
        result["body"] = result["json"]["content"]
    else:
        result["body"] = response.text
        try:
            result["json"] = response.json()
        except ValueError:
            pass
    result["duration"] = (time.perf_counter() - started) * 1000
    print(f"{cell}: {method} {url.split('?')[0]} -> {response.status_code}")
    return result
`;

/** The openai SDK's calls, read as answers. */
export const PYTHON_OPENAI = `def sdk_call(cell, method, **fields):
    """Calls the openai SDK; its answer as the notebook keeps it (a stream assembled)."""
    started = time.perf_counter()
    try:
        raw = method(**fields)
    except openai.APIStatusError as error:
        raw = error
        answer = error.body
    else:
        answer = raw.parse()
    response = raw.response if isinstance(raw, openai.APIStatusError) else raw
    result = {
        "status": response.status_code,
        "headers": {k.lower(): v for k, v in response.headers.items()},
    }
    if isinstance(answer, openai.Stream):
        events = []
        for chunk in answer:
            result.setdefault("ttft", (time.perf_counter() - started) * 1000)
            events.append(chunk.model_dump())
        result["json"] = assembled(events)
        result["body"] = result["json"]["content"]
    else:
        result["json"] = (
            answer.model_dump() if hasattr(answer, "model_dump") else answer
        )
        result["body"] = as_text(result["json"])
    result["duration"] = (time.perf_counter() - started) * 1000
    print(f"{cell}: {response.status_code}")
    return result
`;

/** Pusher's server SDK's calls, read as answers. */
export const PYTHON_PUSHER = `def pusher_call(cell, method, **fields):
    """Calls Pusher's server SDK (it raises when the server refuses)."""
    started = time.perf_counter()
    answer = method(**fields)
    print(f"{cell}: sent")
    duration = (time.perf_counter() - started) * 1000
    body = as_text(answer)
    return {
        "status": 200,
        "headers": {},
        "json": answer,
        "body": body,
        "duration": duration,
    }
`;
