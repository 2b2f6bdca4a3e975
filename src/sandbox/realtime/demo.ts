// Optional traffic so someone trying the sandbox for the first time sees events arrive without
// writing a publisher: a price ticker on a public channel and a presence channel with two
// people who chat now and then.
import type { Broker } from './broker';

export const DEMO_CHANNELS = { ticker: 'demo-ticker', presence: 'presence-demo' } as const;

const PEOPLE = [
  { id: 'ada', info: { name: 'Ada Lovelace' } },
  { id: 'grace', info: { name: 'Grace Hopper' } },
];

const LINES = ['Anyone watching the ticker?', 'Prices look lively today.', 'Try Publish Event… on this channel.', 'Hello from the sandbox!'];

export function startDemoPublisher(broker: Broker, intervalMs = 1_000): { stop(): void } {
  for (const p of PEOPLE) broker.addVirtualMember(DEMO_CHANNELS.presence, p.id, p.info);
  let seq = 0;
  let price = 100;
  const timer = setInterval(() => {
    seq++;
    // A bounded random walk, rounded to cents.
    price = Math.max(1, Math.round((price + (Math.random() - 0.5) * 2) * 100) / 100);
    broker.publish([DEMO_CHANNELS.ticker], 'price', JSON.stringify({ symbol: 'ACME', price, seq, time: new Date().toISOString() }));
    if (seq % 5 === 0) {
      const who = PEOPLE[(seq / 5) % PEOPLE.length];
      broker.publish([DEMO_CHANNELS.presence], 'message', JSON.stringify({ from: who.id, text: LINES[(seq / 5) % LINES.length] }));
    }
  }, intervalMs);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      for (const p of PEOPLE) broker.removeVirtualMember(DEMO_CHANNELS.presence, p.id);
    },
  };
}
