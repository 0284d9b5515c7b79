/** The SSH capability (host side). Tools reach it through ctx as electron/common's SshCapability. */
export { createSshClient, type SshClientOptions } from './ssh-client';
export { identityFromFile, SshIdentityError, type IdentityLookup, type IdentityProblem, type SshIdentity } from './identity';
export { hostKeyFingerprint } from './fingerprint';
export { checkRemoteCommand, MAX_COMMAND_LENGTH, type CommandVerdict } from './command-rules';
