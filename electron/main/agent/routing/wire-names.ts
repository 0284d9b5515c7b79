/**
 * Tool names on the wire (`filesystem.read` ⇄ `filesystem_read`, SPEC §5). The mapping lives in
 * the model layer, which sends the definitions and parses the calls back; routing uses the very
 * same functions, so the names in the tool block and the names the parser accepts cannot drift.
 * fromWireName resolves a name among the known ones (wire or dotted form) and returns an unknown
 * name unchanged: the gate denies it with the closest real names, nothing is guessed here.
 */
export { fromWireName, toWireName, WIRE_NAME } from '../../model/backend';
