import { describe, expect, it } from 'vitest';
import { redactSecretsDeep, redactSecretsInText } from '../../../electron/main/audit/redact';

/**
 * Issue 14 class 9: the value after a secret-named flag in an argument list, in a command line and
 * in arguments written as JSON text. The list of secret names is secret-keys.ts (isSecretKey).
 */
describe('argument lists', () => {
  it.each([
    [['log', '--password', 'hunter2'], ['log', '--password', '[redacted]']],
    [['--token', 'abc', '-v'], ['--token', '[redacted]', '-v']],
    [['--passwd', 'p', '--pass', 'q', '--secret', 's', '--auth', 'a'], ['--passwd', '[redacted]', '--pass', '[redacted]', '--secret', '[redacted]', '--auth', '[redacted]']],
    [['--api-key', 'k', '--apikey', 'k', '--credentials', 'c', '--credential', 'c', '--private-key', 'pk'], ['--api-key', '[redacted]', '--apikey', '[redacted]', '--credentials', '[redacted]', '--credential', '[redacted]', '--private-key', '[redacted]']],
    [['-Password', 'x'], ['-Password', '[redacted]']],
    // No shell between arguments: `$X` and a value starting with `-` are the value itself.
    [['--password', '$X'], ['--password', '[redacted]']],
    [['--password', '-x7!q'], ['--password', '[redacted]']],
    // A long option after the flag is not its value (mysql --password prompts).
    [['--password', '--host', 'db'], ['--password', '--host', 'db']],
    [['--token', ''], ['--token', '']],
    // Glued forms were redacted before and still are.
    [['--password=hunter2'], ['--password=[redacted]']],
  ])('%j → %j', (input, expected) => {
    expect(redactSecretsDeep({ args: input })).toEqual({ args: expected });
  });

  it.each([
    // Positive controls: a port, a switch, a file, a count, a path that happens to end in a flag name.
    ['-p', '2222', 'host'],
    ['mkdir', '-p', 'a/b'],
    ['--password-file', '/etc/pw', '--key-file', 'id.pem', '--token-count', '5', '--ask-pass', 'yes', '--no-password', 'x'],
    ['/home/kim/--password', 'notes.txt'],
    ['a', 'b', 'c'],
  ])('keeps %j', (...input) => {
    expect(redactSecretsDeep({ args: input })).toEqual({ args: input });
  });

  it('judges short flags with the program of a {command, args} record', () => {
    expect(redactSecretsDeep({ command: 'mysql', args: ['-phunter2', 'db'] })).toEqual({ command: 'mysql', args: ['-p[redacted]', 'db'] });
    expect(redactSecretsDeep({ command: 'mysql', args: ['-p', 'salesdb'] })).toEqual({ command: 'mysql', args: ['-p', 'salesdb'] });
    expect(redactSecretsDeep({ command: '/usr/bin/sshpass', args: ['-p', 'pw', 'ssh', 'h'] })).toEqual({ command: '/usr/bin/sshpass', args: ['-p', '[redacted]', 'ssh', 'h'] });
    expect(redactSecretsDeep({ command: 'zip', args: ['-P', 'pw', 'a.zip'] })).toEqual({ command: 'zip', args: ['-P', '[redacted]', 'a.zip'] });
    expect(redactSecretsDeep({ command: 'curl', args: ['-u', 'kim:pw', 'https://x'] })).toEqual({ command: 'curl', args: ['-u', 'kim:[redacted]', 'https://x'] });
    expect(redactSecretsDeep({ command: 'ssh', args: ['-p', '2222', 'kim@db'] })).toEqual({ command: 'ssh', args: ['-p', '2222', 'kim@db'] });
    expect(redactSecretsDeep({ command: 'sort', args: ['-u', 'a:b'] })).toEqual({ command: 'sort', args: ['-u', 'a:b'] });
  });

  it('is idempotent (the gate redacts, then the ledger again)', () => {
    for (const value of [
      { command: 'mysql', args: ['-pGlu3d', 'salesdb', '--password', 'x', '--user', 'u'] },
      { command: 'git', args: ['log', '--token', 'x', '--password', '--host', 'h'] },
      { args: ['--password', '[redacted]', 'next'] },
    ]) {
      const once = redactSecretsDeep(value);
      expect(redactSecretsDeep(once)).toEqual(once);
    }
  });
});

describe('command lines and JSON text', () => {
  it.each([
    ['mysql --password hunter2 -h db', 'mysql --password [redacted] -h db'],
    ['{"args":["log","--password","hunter2","-n","3"]}', '{"args":["log","--password","[redacted]","-n","3"]}'],
    ['{"args":["--token", "a\\"b", "x"]}', '{"args":["--token", "[redacted]", "x"]}'],
    ['"{\\"args\\":[\\"--password\\",\\"hunter2\\"]}"', '"{\\"args\\":[\\"--password\\",\\"[redacted]\\"]}"'],
    ['{"args":["--password-file","pw.txt"]}', '{"args":["--password-file","pw.txt"]}'],
    ['{"args":["-p","2222"]}', '{"args":["-p","2222"]}'],
  ])('%s → %s', (input, expected) => {
    expect(redactSecretsInText(input)).toBe(expected);
    expect(redactSecretsInText(expected)).toBe(expected);
  });
});
