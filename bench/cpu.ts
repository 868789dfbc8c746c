import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";

/**
 * CPU time (Linux /proc) of the server's process group, of the bench's own PostgreSQL cluster (the
 * postmaster and its children), of this process, and of the whole machine, so a measurement can say
 * who used the cores, other work on the machine included. Elsewhere every figure is NaN. The server's
 * time is also split by process role (scripts/serve.ts's RX_SERVE_ROLE: "http" workers, "jobs" the
 * background work, "primary" the rest of the group).
 */
export type CpuSample = { at: number; server: number; serverRoles: Record<string, number>; postgres: number; bench: number; machine: number };
export type CpuUse = { seconds: number; server: number; serverRoles: Record<string, number>; postgres: number; bench: number; other: number; idle: number };

const TICK = 100; // USER_HZ

function procStat(pid: string): { ppid: number; pgid: number; cpu: number; reapedChildrenCpu: number; startedAt: string } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    // After the command: state ppid pgrp session … utime(11) stime(12) cutime(13) cstime(14) … starttime(19).
    return {
      ppid: Number(fields[1]),
      pgid: Number(fields[2]),
      cpu: (Number(fields[11]) + Number(fields[12])) / TICK,
      reapedChildrenCpu: (Number(fields[13]) + Number(fields[14])) / TICK,
      startedAt: fields[19],
    };
  } catch {
    return null;
  }
}

/** A process's serve role, read once per process (pid and start time: the environment of a process does not change). */
const roles = new Map<string, string>();
function roleOf(pid: string, startedAt: string): string {
  let role = roles.get(`${pid}:${startedAt}`);
  if (role === undefined) {
    try {
      role = /(?:^|\0)RX_SERVE_ROLE=(\w+)/.exec(readFileSync(`/proc/${pid}/environ`, "utf8"))?.[1] ?? "primary";
    } catch {
      role = "primary";
    }
    roles.set(`${pid}:${startedAt}`, role);
  }
  return role;
}

export function cpuSampler(serverPgid: number | null, postgresDataDir: string | null): () => CpuSample {
  return () => {
    let server = 0;
    const serverRoles: Record<string, number> = {};
    let postgres = 0;
    let postmaster = NaN;
    try {
      if (postgresDataDir) postmaster = Number(readFileSync(`${postgresDataDir}/postmaster.pid`, "utf8").split("\n")[0]);
    } catch {
      // not running
    }
    let pids: string[] = [];
    try {
      pids = readdirSync("/proc").filter((p) => /^\d+$/.test(p));
    } catch {
      return { at: Date.now(), server: NaN, serverRoles, postgres: NaN, bench: NaN, machine: NaN };
    }
    for (const pid of pids) {
      const stat = procStat(pid);
      if (!stat) continue;
      if (serverPgid !== null && stat.pgid === serverPgid) {
        server += stat.cpu;
        const role = roleOf(pid, stat.startedAt);
        serverRoles[role] = (serverRoles[role] ?? 0) + stat.cpu;
      }
      // The postmaster's reaped children count too: a backend that ended (a pool closing an idle
      // connection) would otherwise take its CPU time out of the sum.
      else if (Number(pid) === postmaster) postgres += stat.cpu + stat.reapedChildrenCpu;
      else if (stat.ppid === postmaster) postgres += stat.cpu;
    }
    const self = procStat(String(process.pid));
    let machine = NaN;
    try {
      // First line of /proc/stat: user nice system idle iowait irq softirq steal …; busy = all but idle and iowait.
      const ticks = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1, 9).map(Number);
      machine = (ticks.reduce((a, b) => a + b, 0) - ticks[3] - ticks[4]) / TICK;
    } catch {
      // not Linux
    }
    return { at: Date.now(), server, serverRoles, postgres: postgresDataDir ? postgres : NaN, bench: self ? self.cpu : NaN, machine };
  };
}

/** Cores used on average between two samples (of os.cpus().length); `other` is every other process on the machine. */
export function cpuBetween(a: CpuSample, b: CpuSample): CpuUse {
  const seconds = (b.at - a.at) / 1000;
  const rate = (x: number, y: number) => (y - x) / seconds;
  const server = rate(a.server, b.server);
  const serverRoles = Object.fromEntries(Object.entries(b.serverRoles).map(([role, cpu]) => [role, rate(a.serverRoles[role] ?? 0, cpu)]));
  const postgres = rate(a.postgres, b.postgres);
  const bench = rate(a.bench, b.bench);
  const busy = rate(a.machine, b.machine);
  const known = server + (Number.isNaN(postgres) ? 0 : postgres) + bench;
  return { seconds, server, serverRoles, postgres, bench, other: Math.max(0, busy - known), idle: Math.max(0, os.cpus().length - busy) };
}
