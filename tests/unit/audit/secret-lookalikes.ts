/**
 * Audit text that looks a little like a secret (a file or flag named after a password or token, a
 * certificate, a public key) and must stay exactly as it is. redact.test.ts checks each one alone;
 * redact-prescan.test.ts glues them into generated texts.
 */
export const SECRET_LOOKALIKES: readonly string[] = [
  'D:\\공유\\보안\\password-policy.docx',
  'reports/sk-hynix-quarterly-2024-final-version.xlsx',
  'token_report.xlsx: 3 pages',
  'maxTokens=512 tokenCount: 3 prompt_tokens: 10',
  'deploy --password-file /etc/app/pw.txt --token-count 5',
  'docker login --password-stdin -u kim registry.example',
  'ansible-playbook --ask-pass site.yml',
  'New-LocalUser -Name kim -Password $securePw',
  'The bearer of this letter is our employee.',
  'Basic Settings and Basic information',
  'https://intranet.example/wiki/Password_Policy?page=2',
  'ssh://git@git.example/team/repo.git and git@github.com:org/repo.git',
  'ssh -p 2222 kim@host && mkdir -p a/b && cp -p x y',
  'docker run -u 1000:1000 alpine && sort -u names.txt',
  'curl --user-agent=Baram/1.0:ko https://intranet.example',
  '{"key":"F5","value":"refresh"}',
  'argsSha256: 3f2a9c0d1e4b5a6978812233445566778899aabbccddeeff0011223344556677',
  '2025-01-01T10:00:00.000Z 10:30 KST',
  '비밀번호 변경 안내.docx',
  '암호화 방식: AES-256',
  '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----',
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl kim@pc',
];
