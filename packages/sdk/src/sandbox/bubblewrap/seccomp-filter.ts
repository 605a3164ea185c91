/**
 * The seccomp filter every bubblewrap sandbox runs under: a classic BPF program, assembled here
 * (bubblewrap takes it compiled, through `--seccomp FD`), that refuses the system calls a script
 * could use to mint privileges on the host or to slip past the other checks:
 *
 * - setting the set-user-id or set-group-id bit (`chmod`, `fchmod`, `fchmodat`, `fchmodat2`, and a
 *   mode with those bits when a file is created: `open`, `openat`, `creat`, `mknod`, `mknodat`) —
 *   a file in a work directory is a file on the host, so such a bit would let any local user run
 *   it as the sandbox's host user;
 * - extended attributes (`setxattr` and its variants): file capabilities (`security.capability`)
 *   are stored there, and scripts have no other use for them;
 * - `openat2` (its mode sits behind a pointer the filter cannot read; C libraries fall back to
 *   `openat` on ENOSYS) and `io_uring` (its operations bypass system-call filtering altogether);
 * - every call of another ABI (32-bit x86 on x86-64, x32, 32-bit ARM on arm64), whose numbers
 *   differ and would escape the rules above.
 *
 * Everything else is allowed: this is a narrow filter against privilege minting, not a general
 * system-call allow-list (docs/capabilities.md says what it does not cover).
 */

/** A system-call ABI the filter knows. */
interface Architecture {
  /** `AUDIT_ARCH_*` value the kernel puts in `seccomp_data.arch`. */
  audit: number;
  /** Calls whose mode argument (index) must not carry the set-id bits. */
  modeChecked: readonly { call: number; modeArgument: number; flagsArgument?: number }[];
  /** Calls refused with EPERM. */
  refused: readonly number[];
  /** Calls refused with ENOSYS, so that callers fall back to an older call. */
  unavailable: readonly number[];
  /** Numbers at or above this belong to another ABI on the same architecture (x32), refused. */
  foreignBit?: number;
}

const architectures: Readonly<Record<string, Architecture>> = {
  x64: {
    audit: 0xc000003e,
    modeChecked: [
      { call: 90, modeArgument: 1 }, // chmod
      { call: 91, modeArgument: 1 }, // fchmod
      { call: 268, modeArgument: 2 }, // fchmodat
      { call: 452, modeArgument: 2 }, // fchmodat2
      { call: 2, modeArgument: 2, flagsArgument: 1 }, // open
      { call: 257, modeArgument: 3, flagsArgument: 2 }, // openat
      { call: 85, modeArgument: 1 }, // creat
      { call: 133, modeArgument: 1 }, // mknod
      { call: 259, modeArgument: 2 }, // mknodat
    ],
    refused: [188, 189, 190, 463], // setxattr, lsetxattr, fsetxattr, setxattrat
    unavailable: [437, 425, 426, 427], // openat2, io_uring_setup, io_uring_enter, io_uring_register
    foreignBit: 0x40000000,
  },
  arm64: {
    audit: 0xc00000b7,
    modeChecked: [
      { call: 52, modeArgument: 1 }, // fchmod
      { call: 53, modeArgument: 2 }, // fchmodat
      { call: 452, modeArgument: 2 }, // fchmodat2
      { call: 56, modeArgument: 3, flagsArgument: 2 }, // openat
      { call: 33, modeArgument: 2 }, // mknodat
    ],
    refused: [5, 6, 7, 463], // setxattr, lsetxattr, fsetxattr, setxattrat
    unavailable: [437, 425, 426, 427], // openat2, io_uring_setup, io_uring_enter, io_uring_register
  },
};

/** The processor architectures the filter is built for. */
export const seccompArchitectures: readonly string[] = Object.keys(architectures);

// Classic BPF opcodes and seccomp return values (linux/filter.h, linux/seccomp.h).
const loadWord = 0x20; // BPF_LD | BPF_W | BPF_ABS
const jumpEqual = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const jumpGreaterOrEqual = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const jumpSet = 0x45; // BPF_JMP | BPF_JSET | BPF_K
const returnValue = 0x06; // BPF_RET | BPF_K
const allow = 0x7fff0000;
const errno = (code: number) => 0x00050000 | code;
const eperm = 1;
const enosys = 38;
const killProcess = 0x80000000;

const setIdBits = 0o6000;
/** O_CREAT | __O_TMPFILE: the flags under which `open`/`openat` use their mode. */
const creatingFlags = 0o100 | 0o20000000;

// Offsets in struct seccomp_data: nr, arch, instruction pointer, then six 64-bit arguments (low word first).
const numberOffset = 0;
const architectureOffset = 4;
const argumentOffset = (index: number) => 16 + 8 * index;

/** One instruction whose jumps name labels; resolved to relative offsets by `assemble`. */
type Instruction = { code: number; k: number; ifTrue?: string; ifFalse?: string } | { label: string };

/**
 * Builds the filter for an architecture (`process.arch` by default) as the bytes of a
 * `struct sock_filter` array, little-endian, ready for `bwrap --seccomp`. Returns `undefined` for
 * an architecture it does not know (the sandbox then refuses to start, rather than run unfiltered).
 */
export function buildSeccompFilter(architecture: string = process.arch): Buffer | undefined {
  const target = architectures[architecture];
  if (!target) return undefined;
  const program: Instruction[] = [
    { code: loadWord, k: architectureOffset },
    { code: jumpEqual, k: target.audit, ifFalse: 'kill' },
    { code: loadWord, k: numberOffset },
  ];
  if (target.foreignBit !== undefined) program.push({ code: jumpGreaterOrEqual, k: target.foreignBit, ifTrue: 'kill' });
  for (const call of target.refused) program.push({ code: jumpEqual, k: call, ifTrue: 'refuse' });
  for (const call of target.unavailable) program.push({ code: jumpEqual, k: call, ifTrue: 'unavailable' });
  target.modeChecked.forEach((rule, index) => {
    program.push({ code: jumpEqual, k: rule.call, ifTrue: `mode-${index}` });
  });
  program.push({ code: returnValue, k: allow });
  target.modeChecked.forEach((rule, index) => {
    program.push({ label: `mode-${index}` });
    if (rule.flagsArgument !== undefined) {
      program.push({ code: loadWord, k: argumentOffset(rule.flagsArgument) });
      program.push({ code: jumpSet, k: creatingFlags, ifFalse: 'allow' });
    }
    program.push({ code: loadWord, k: argumentOffset(rule.modeArgument) });
    program.push({ code: jumpSet, k: setIdBits, ifTrue: 'refuse', ifFalse: 'allow' });
  });
  program.push(
    { label: 'allow' },
    { code: returnValue, k: allow },
    { label: 'refuse' },
    { code: returnValue, k: errno(eperm) },
    { label: 'unavailable' },
    { code: returnValue, k: errno(enosys) },
    { label: 'kill' },
    { code: returnValue, k: killProcess },
  );
  return assemble(program);
}

/** Resolves labels into the 8-bit relative jump offsets of classic BPF and encodes the program. */
function assemble(program: readonly Instruction[]): Buffer {
  const positions = new Map<string, number>();
  const instructions: Exclude<Instruction, { label: string }>[] = [];
  for (const item of program) {
    if ('label' in item) positions.set(item.label, instructions.length);
    else instructions.push(item);
  }
  const buffer = Buffer.alloc(instructions.length * 8);
  instructions.forEach((instruction, index) => {
    const offset = (label: string | undefined) => {
      if (label === undefined) return 0;
      const target = positions.get(label);
      if (target === undefined) throw new Error(`seccomp filter: unknown label ${label}`);
      const distance = target - index - 1;
      if (distance < 0 || distance > 255) throw new Error(`seccomp filter: jump to ${label} out of range`);
      return distance;
    };
    buffer.writeUInt16LE(instruction.code, index * 8);
    buffer.writeUInt8(offset(instruction.ifTrue), index * 8 + 2);
    buffer.writeUInt8(offset(instruction.ifFalse), index * 8 + 3);
    buffer.writeUInt32LE(instruction.k >>> 0, index * 8 + 4);
  });
  return buffer;
}
