// The one model-kind classification and order: what every picker (Ask, Compare, the Playground, Run
// with Models, the chat-model provider, `"model":` completion) lists, and which model comes first.
import * as assert from 'node:assert/strict';
import { chatModelsOf, modelKind, modelKindsForPath, modelsByKind, orderModels, supportsToolCalls } from '../../../src/catalogue/modelKinds';
import { compareSelection } from '../../../src/features/llm/compareRun';
import { LLM_MODELS } from '../../../src/sandbox/llm';

/** The sandbox's listing as the client returns it: sorted by id, so babbage-002 and dall-e-2 come first. */
const byName = [...LLM_MODELS].sort((a, b) => a.id.localeCompare(b.id));

describe('catalogue/modelKinds: one classification, one order', () => {
  it('agrees with the kind the sandbox serves each of its models as', () => {
    const expected = {
      chat: 'chat',
      completion: 'completion',
      embedding: 'embeddings',
      image: 'images',
      speech: 'audio',
      transcription: 'audio',
      moderation: 'moderation',
    };
    for (const m of LLM_MODELS) assert.equal(modelKind(m.id), expected[m.kind], m.id);
    for (const id of ['gpt-4o', 'llama3.1:8b', 'o3-mini', 'gpt-4o-audio-preview', 'mistral-large-latest']) assert.equal(modelKind(id), 'chat', id);
    for (const id of ['babbage-002', 'davinci-002', 'gpt-3.5-turbo-instruct']) assert.equal(modelKind(id), 'completion', id);
    assert.equal(modelKind('rerank-english-v3.0'), 'embeddings');
    assert.equal(modelKind('gpt-realtime'), 'audio');
  });

  it('lists chat models first, the sandbox chat model pre-selected, and never a completion-only or image model among the chat ones', () => {
    const ordered = orderModels(byName);
    assert.equal(ordered[0].id, 'sandbox-chat');
    const firstOther = ordered.findIndex((m) => modelKind(m.id) !== 'chat');
    assert.ok(
      ordered.slice(firstOther).every((m) => modelKind(m.id) !== 'chat'),
      'chat models all come before the others',
    );
    const chat = chatModelsOf(byName).map((m) => m.id);
    for (const id of ['babbage-002', 'dall-e-2', 'dall-e-3', 'text-embedding-3-small', 'tts-1', 'whisper-1', 'omni-moderation-latest'])
      assert.ok(!chat.includes(id), id);
    assert.equal(chatModelsOf(byName, ['gpt-4o'])[0].id, 'gpt-4o', "the user's last model comes first");
    assert.equal(chatModelsOf(byName, ['dall-e-3'])[0].id, 'sandbox-chat', 'a preferred model that cannot chat is not offered');
  });

  it('groups by kind for pickers, only the kinds asked for', () => {
    assert.deepEqual(
      modelsByKind(byName).map((g) => g.kind),
      ['chat', 'completion', 'embeddings', 'images', 'audio', 'moderation'],
    );
    assert.deepEqual(
      modelsByKind(byName, ['chat']).map((g) => g.kind),
      ['chat'],
    );
  });

  it('a request path names the kind of model it takes', () => {
    assert.deepEqual(modelKindsForPath('/chat/completions'), ['chat']);
    assert.deepEqual(modelKindsForPath('/v1/responses'), ['chat']);
    assert.deepEqual(modelKindsForPath('/completions'), ['completion']);
    assert.deepEqual(modelKindsForPath('/embeddings'), ['embeddings']);
    assert.deepEqual(modelKindsForPath('/images/generations'), ['images']);
    assert.deepEqual(modelKindsForPath('/audio/speech'), ['audio']);
    assert.equal(modelKindsForPath('/files'), undefined);
  });

  it('tool calling is claimed only for chat models that have it', () => {
    for (const id of ['sandbox-chat', 'gpt-4o-mini', 'o3', 'llama3.1:8b']) assert.equal(supportsToolCalls(id), true, id);
    for (const id of ['babbage-002', 'text-embedding-3-small', 'gpt-4o-search-preview', 'o3-deep-research', 'gpt-5-chat-latest', 'o1-mini'])
      assert.equal(supportsToolCalls(id), false, id);
  });

  it('Compare pre-ticks two chat models with a known price', () => {
    assert.deepEqual(compareSelection(byName, [undefined, undefined]), ['sandbox-chat', 'sandbox-chat-mini']);
    const openAi = byName.filter((m) => !m.id.startsWith('sandbox-'));
    const picked = compareSelection(openAi, [undefined, undefined]);
    assert.equal(picked.length, 2);
    for (const id of picked) assert.equal(modelKind(id), 'chat', id);
    assert.deepEqual(picked, ['gpt-4o-mini', 'gpt-4.1-mini']);
  });
});
