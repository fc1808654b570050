import { describe, expect, it } from 'vitest';
import { partRoleOf } from '../../../core/api/index.js';

describe('partRoleOf: one role for tool output, whatever the agent stored it under', () => {
  it('gives tool for every agent’s tool_result part', () => {
    expect(partRoleOf('tool_result', 'user')).toBe('tool'); // Claude Code
    expect(partRoleOf('tool_result', 'tool')).toBe('tool'); // Codex, Gemini
    expect(partRoleOf('tool_result', 'toolResult')).toBe('tool'); // OpenClaw
  });

  it('gives tool for an OpenClaw toolResult that holds no tool_result part (an image a tool returned)', () => {
    expect(partRoleOf('image', 'toolResult')).toBe('tool');
  });

  it('keeps the stored role of everything else', () => {
    expect(partRoleOf('text', 'user')).toBe('user');
    expect(partRoleOf('image', 'user')).toBe('user');
    expect(partRoleOf('text', null)).toBeNull();
  });
});
