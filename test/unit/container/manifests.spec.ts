import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadAll } from 'js-yaml';

/**
 * Static checks on docker/Dockerfile and docker/k8s/*.yaml: the mistakes that pass `kubectl apply`
 * or `docker build` yet break a rollout (selectors that match nothing, probes on the wrong port,
 * a Secret key nobody defines, a ConfigMap number the API server refuses, a root container).
 */

const root = resolve(__dirname, '../../..');
const k8sDir = join(root, 'docker/k8s');
const NAME_LABEL = 'app.kubernetes.io/name';
const APP = 'plat-api';
const REQUIRED_SECRET_KEYS = ['DATABASE_URL', 'REDIS_URL', 'ORIGIN_KEY', 'CURSOR_SECRET', 'MEDIA_URL_SECRET'];
const REQUIRED_CONFIG_KEYS = ['PORT', 'PUBLIC_HOST', 'LOG_LEVEL', 'TRUST_PROXY'];

// Parsed YAML is walked freely; the expectations do the type checking.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;
interface Manifest {
  file: string;
  doc: Obj;
}

function loadYaml(file: string): Obj[] {
  return (loadAll(readFileSync(join(k8sDir, file), 'utf8')) as unknown[]).filter(
    (doc): doc is Obj => doc !== null && typeof doc === 'object',
  );
}

const yamlFiles = readdirSync(k8sDir).filter((f) => /\.ya?ml$/.test(f));
const kustomization = loadYaml('kustomization.yaml')[0];
const resourceFiles: string[] = kustomization.resources ?? [];
const applied: Manifest[] = resourceFiles.flatMap((file) => loadYaml(file).map((doc) => ({ file, doc })));
const secretExample = loadYaml('secret.example.yaml')[0];

function only(kind: string): Obj {
  const found = applied.filter((m) => m.doc.kind === kind);
  expect(found).toHaveLength(1);
  return found[0].doc;
}

const deployment = () => only('Deployment');
const podSpec = () => deployment().spec.template.spec;
const container = () => {
  const containers: Obj[] = podSpec().containers;
  expect(containers).toHaveLength(1);
  return containers[0];
};

function matches(selector: Obj, labels: Obj): boolean {
  return Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);
}

/** A probe or Service port: a named or numbered port of the container. */
function containerPortOf(port: string | number): number | undefined {
  const ports: Obj[] = container().ports ?? [];
  const hit = ports.find((p) => p.name === port || p.containerPort === port);
  return hit?.containerPort;
}

describe('docker/k8s kustomization', () => {
  it('lists every manifest in the folder except the example Secret, and each listed file exists', () => {
    expect(kustomization.apiVersion).toBe('kustomize.config.k8s.io/v1beta1');
    expect(kustomization.kind).toBe('Kustomization');
    for (const file of resourceFiles) expect(existsSync(join(k8sDir, file))).toBe(true);
    const expected = yamlFiles.filter((f) => f !== 'kustomization.yaml' && f !== 'secret.example.yaml');
    expect([...resourceFiles].sort()).toEqual(expected.sort());
  });

  it('never applies the example Secret over the real one', () => {
    expect(resourceFiles).not.toContain('secret.example.yaml');
    expect(applied.filter((m) => m.doc.kind === 'Secret')).toEqual([]);
  });

  it('has the expected kinds and API versions', () => {
    const kinds = Object.fromEntries(applied.map((m) => [m.doc.kind, m.doc.apiVersion]));
    expect(kinds).toEqual({
      ConfigMap: 'v1',
      Deployment: 'apps/v1',
      Service: 'v1',
      HorizontalPodAutoscaler: 'autoscaling/v2',
      PodDisruptionBudget: 'policy/v1',
    });
    expect(secretExample.apiVersion).toBe('v1');
    expect(secretExample.kind).toBe('Secret');
  });

  it(`labels every object ${NAME_LABEL}: ${APP}`, () => {
    for (const { doc } of [...applied, { file: 'secret.example.yaml', doc: secretExample }]) {
      expect(doc.metadata?.labels?.[NAME_LABEL]).toBe(APP);
    }
    expect(deployment().spec.template.metadata.labels[NAME_LABEL]).toBe(APP);
  });
});

describe('Deployment', () => {
  it('runs 3 replicas whose pod labels satisfy its selector', () => {
    const spec = deployment().spec;
    expect(spec.replicas).toBe(3);
    expect(spec.selector.matchLabels[NAME_LABEL]).toBe(APP);
    expect(matches(spec.selector.matchLabels, spec.template.metadata.labels)).toBe(true);
  });

  it('probes the health paths on the container port', () => {
    const c = container();
    expect(c.livenessProbe.httpGet.path).toBe('/health/live');
    expect(c.readinessProbe.httpGet.path).toBe('/health/ready');
    expect(c.startupProbe.httpGet.path).toMatch(/^\/health\/(live|ready)$/);
    for (const probe of [c.livenessProbe, c.readinessProbe, c.startupProbe]) {
      expect(containerPortOf(probe.httpGet.port)).toBe(3000);
    }
  });

  it('listens on the port the ConfigMap gives the app', () => {
    const config = only('ConfigMap');
    expect(containerPortOf('http')).toBe(3000);
    expect(Number(config.data.PORT)).toBe(containerPortOf('http'));
  });

  it('serves metrics on a port of their own, which the pod annotations point Prometheus at (issue 11 item 11)', () => {
    const metricsPort = containerPortOf('metrics');
    expect(metricsPort).toBeDefined();
    expect(metricsPort).not.toBe(containerPortOf('http'));
    expect(Number(only('ConfigMap').data.METRICS_PORT)).toBe(metricsPort);
    const annotations = deployment().spec.template.metadata.annotations;
    expect(annotations['prometheus.io/scrape']).toBe('true');
    expect(Number(annotations['prometheus.io/port'])).toBe(metricsPort);
    expect(annotations['prometheus.io/path']).toBe('/metrics');
  });

  it('is locked down: non-root, read-only root filesystem, no capabilities, no escalation', () => {
    const pod = podSpec();
    const sc = container().securityContext;
    expect(pod.securityContext.runAsNonRoot ?? sc.runAsNonRoot).toBe(true);
    const uid = sc.runAsUser ?? pod.securityContext.runAsUser;
    if (uid !== undefined) expect(uid).not.toBe(0);
    expect(sc.readOnlyRootFilesystem).toBe(true);
    expect(sc.allowPrivilegeEscalation).toBe(false);
    expect(sc.capabilities.drop).toContain('ALL');
    expect(sc.capabilities.add ?? []).toEqual([]);
    expect(sc.privileged ?? false).toBe(false);
  });

  it('gives the read-only container a writable /tmp backed by a declared volume', () => {
    const mount = (container().volumeMounts ?? []).find((m: Obj) => m.mountPath === '/tmp');
    expect(mount).toBeDefined();
    expect((podSpec().volumes ?? []).map((v: Obj) => v.name)).toContain(mount.name);
  });

  it('sets CPU and memory requests and limits, requests not above limits', () => {
    const { requests, limits } = container().resources;
    for (const key of ['cpu', 'memory']) {
      expect(requests[key]).toBeDefined();
      expect(limits[key]).toBeDefined();
    }
    expect(cpuMillis(requests.cpu)).toBeLessThanOrEqual(cpuMillis(limits.cpu));
    expect(bytes(requests.memory)).toBeLessThanOrEqual(bytes(limits.memory));
  });

  it('drains before stopping: preStop sleep plus the app shutdown timeout fit in the grace period', () => {
    const command: string[] = container().lifecycle.preStop.exec.command;
    expect(command[0]).toBe('sleep');
    const sleep = Number(command[1]);
    expect(sleep).toBeGreaterThan(0);
    const shutdownSeconds = Number(only('ConfigMap').data.SHUTDOWN_TIMEOUT_MS ?? 25_000) / 1000;
    // Past the grace period the kubelet SIGKILLs the pod mid-request.
    expect(podSpec().terminationGracePeriodSeconds).toBeGreaterThan(sleep + shutdownSeconds);
  });

  it('cannot open more database connections than a default PostgreSQL allows', () => {
    const poolSize = Number(only('ConfigMap').data.DATABASE_POOL_SIZE ?? 10);
    const maxPods =
      only('HorizontalPodAutoscaler').spec.maxReplicas + deployment().spec.strategy.rollingUpdate.maxSurge;
    // max_connections defaults to 100: 3 are reserved for superusers, keep a few for operators.
    expect(maxPods * poolSize).toBeLessThanOrEqual(90);
  });

  it('takes every required secret from a Secret key that the example Secret documents', () => {
    const env: Obj[] = container().env ?? [];
    const fromSecret = env.filter((e) => e.valueFrom?.secretKeyRef);
    expect(fromSecret.map((e) => e.name).sort()).toEqual([...REQUIRED_SECRET_KEYS].sort());
    for (const e of fromSecret) {
      const ref = e.valueFrom.secretKeyRef;
      expect(ref.name).toBe(secretExample.metadata.name);
      expect(Object.keys(secretExample.stringData ?? {})).toContain(ref.key);
      expect(ref.optional ?? false).toBe(false);
    }
    for (const ref of (container().envFrom ?? []).filter((e: Obj) => e.secretRef)) {
      expect(ref.secretRef.name).toBe(secretExample.metadata.name);
    }
  });

  it('references only ConfigMaps that the kustomization applies', () => {
    const configMaps = applied.filter((m) => m.doc.kind === 'ConfigMap').map((m) => m.doc.metadata.name);
    const refs = [
      ...(container().envFrom ?? []).filter((e: Obj) => e.configMapRef).map((e: Obj) => e.configMapRef.name),
      ...(container().env ?? [])
        .filter((e: Obj) => e.valueFrom?.configMapKeyRef)
        .map((e: Obj) => e.valueFrom.configMapKeyRef.name),
    ];
    expect(refs.length).toBeGreaterThan(0);
    for (const name of refs) expect(configMaps).toContain(name);
  });
});

describe('ConfigMap', () => {
  it('carries the non-secret settings as strings (the API server refuses numbers and booleans)', () => {
    const data = only('ConfigMap').data;
    for (const key of REQUIRED_CONFIG_KEYS) expect(Object.keys(data)).toContain(key);
    for (const value of Object.values(data)) expect(typeof value).toBe('string');
  });

  it('holds nothing that belongs in the Secret', () => {
    const data = only('ConfigMap').data;
    for (const key of REQUIRED_SECRET_KEYS) expect(Object.keys(data)).not.toContain(key);
  });
});

describe('secret.example.yaml', () => {
  it('documents every required key with a placeholder, never a real value', () => {
    const data: Obj = secretExample.stringData;
    expect(secretExample.data).toBeUndefined();
    expect(Object.keys(data).sort()).toEqual([...REQUIRED_SECRET_KEYS].sort());
    for (const value of Object.values(data)) expect(value).toMatch(/change-me/);
  });
});

describe('Service', () => {
  it('selects the Deployment pods and forwards to the container port', () => {
    const service = only('Service');
    expect(service.metadata.name).toBe(APP);
    expect(matches(service.spec.selector, deployment().spec.template.metadata.labels)).toBe(true);
    for (const port of service.spec.ports) expect(containerPortOf(port.targetPort)).toBe(3000);
  });

  it('never publishes the metrics port', () => {
    const metricsPort = containerPortOf('metrics');
    for (const port of only('Service').spec.ports) {
      expect(containerPortOf(port.targetPort)).not.toBe(metricsPort);
    }
  });
});

describe('HorizontalPodAutoscaler', () => {
  it('scales the Deployment on CPU, never below the Deployment replicas', () => {
    const hpa = only('HorizontalPodAutoscaler');
    expect(hpa.spec.scaleTargetRef).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: deployment().metadata.name,
    });
    expect(hpa.spec.minReplicas).toBe(deployment().spec.replicas);
    expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas);
    const cpu = hpa.spec.metrics.find((m: Obj) => m.type === 'Resource' && m.resource.name === 'cpu');
    expect(cpu.resource.target.type).toBe('Utilization');
    expect(cpu.resource.target.averageUtilization).toBeGreaterThan(0);
    // Utilization is a percentage of the request: without one the HPA cannot compute it.
    expect(container().resources.requests.cpu).toBeDefined();
  });
});

describe('scaling on request rate (issue 11 item 11)', () => {
  const [adapter] = (
    loadAll(readFileSync(join(k8sDir, 'monitoring/prometheus-adapter-config.yaml'), 'utf8')) as Obj[]
  ).filter(Boolean);
  const rules: Obj[] = (loadAll(adapter.data['config.yaml']) as Obj[])[0].rules;
  const rate = () => only('HorizontalPodAutoscaler').spec.metrics.find((m: Obj) => m.type === 'Pods');

  it('scales on requests per second per pod beside CPU', () => {
    const hpa = only('HorizontalPodAutoscaler');
    expect(rate().pods.metric.name).toBe('http_requests_per_second');
    expect(rate().pods.target.type).toBe('AverageValue');
    expect(Number(rate().pods.target.averageValue)).toBeGreaterThan(0);
    expect(hpa.spec.metrics.some((m: Obj) => m.type === 'Resource' && m.resource.name === 'cpu')).toBe(true);
  });

  it('documents the prometheus-adapter rule that makes that metric from the counter the app exposes', () => {
    expect(adapter.kind).toBe('ConfigMap');
    const rule = rules.find((r) => r.name.as === rate().pods.metric.name);
    expect(rule).toBeDefined();
    expect(rule!.seriesQuery).toMatch(/^http_requests_total\{/);
    expect(rule!.metricsQuery).toMatch(/rate\(<<\.Series>>/);
    expect(rule!.resources.overrides.pod.resource).toBe('pod');
    const exposed = readFileSync(join(root, 'src/infrastructure/metrics/http-metrics.ts'), 'utf8');
    expect(exposed).toContain("'http_requests_total'");
  });
});

describe('PodDisruptionBudget', () => {
  it('selects the Deployment pods and still lets a drain evict one', () => {
    const pdb = only('PodDisruptionBudget');
    expect(matches(pdb.spec.selector.matchLabels, deployment().spec.template.metadata.labels)).toBe(true);
    expect(typeof pdb.spec.minAvailable).toBe('number');
    expect(pdb.spec.minAvailable).toBeGreaterThan(0);
    expect(pdb.spec.minAvailable).toBeLessThan(only('HorizontalPodAutoscaler').spec.minReplicas);
  });
});

describe('docker/k8s/jobs/migrate.yaml', () => {
  const [job] = (loadAll(readFileSync(join(k8sDir, 'jobs/migrate.yaml'), 'utf8')) as Obj[]).filter(Boolean);
  const jobContainer = () => job.spec.template.spec.containers[0];

  it('is a Job that runs the migrate script once, never restarting in place', () => {
    expect(job.apiVersion).toBe('batch/v1');
    expect(job.kind).toBe('Job');
    expect(job.metadata.labels[NAME_LABEL]).toBe(APP);
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
    expect(jobContainer().command).toEqual(['node', 'dist/scripts/migrate.js']);
    const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
    expect(scripts.migrate).toBe('node dist/scripts/migrate.js');
  });

  it('runs the Deployment image, configured like it, with the database secret', () => {
    const image = kustomization.images[0];
    expect(jobContainer().image).toBe(`${image.newName}:${image.newTag}`);
    expect(jobContainer().envFrom).toEqual(container().envFrom);
    const databaseUrl = jobContainer().env.find((entry: Obj) => entry.name === 'DATABASE_URL');
    expect(databaseUrl.valueFrom.secretKeyRef).toEqual({ name: 'plat-api-secrets', key: 'DATABASE_URL' });
  });

  it('is locked down like the Deployment', () => {
    expect(job.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
    expect(jobContainer().securityContext).toMatchObject({
      runAsNonRoot: true,
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
  });

  it('leaves migrating to the Job: the ConfigMap turns boot migrations off', () => {
    expect(only('ConfigMap').data.MIGRATE_ON_BOOT).toBe('false');
  });
});

describe('docker/Dockerfile', () => {
  const instructions = parseDockerfile(readFileSync(join(root, 'docker/Dockerfile'), 'utf8'));
  const stages = splitStages(instructions);
  const runtime = stages[stages.length - 1];
  const last = (stage: Instruction[], op: string) => [...stage].reverse().find((i) => i.op === op);

  it('is multi-stage and every COPY --from names an earlier stage', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const names = stages.map((s) => /\bAS\s+(\S+)/i.exec(s[0].args)?.[1]);
    stages.forEach((stage, index) => {
      for (const copy of stage.filter((i) => i.op === 'COPY' && /--from=/.test(i.args))) {
        const from = /--from=(\S+)/.exec(copy.args)![1];
        expect(names.slice(0, index)).toContain(from);
      }
    });
  });

  it('installs with npm ci, builds with npm run build, and ships production deps only', () => {
    const runs = instructions.filter((i) => i.op === 'RUN').map((i) => i.args);
    expect(runs.some((r) => /\bnpm ci\b(?!.*--omit=dev)/.test(r))).toBe(true);
    expect(runs.some((r) => /\bnpm run build\b/.test(r))).toBe(true);
    expect(runs.some((r) => /\bnpm ci --omit=dev\b/.test(r))).toBe(true);
  });

  it('runs on node:24-slim (the current LTS) in production mode', () => {
    expect(runtime[0].args).toMatch(/^node:24-slim\b/);
    const env = runtime.filter((i) => i.op === 'ENV').map((i) => i.args);
    expect(env.some((e) => /\bNODE_ENV=production\b/.test(e))).toBe(true);
  });

  it('runs as a non-root user', () => {
    const user = last(runtime, 'USER');
    expect(user).toBeDefined();
    expect(user!.args.split(':')[0]).not.toMatch(/^(root|0)$/);
  });

  it('exposes 3000 and health-checks GET /health/live with node (slim has no curl)', () => {
    expect(last(runtime, 'EXPOSE')?.args).toBe('3000');
    const healthcheck = last(runtime, 'HEALTHCHECK');
    expect(healthcheck?.args).toContain('/health/live');
    expect(healthcheck?.args).toMatch(/CMD \[\s*"node"/);
    expect(healthcheck?.args).not.toMatch(/\b(curl|wget)\b/);
  });

  it('starts dist/src/main.js with node in exec form', () => {
    expect(JSON.parse(last(runtime, 'CMD')!.args)).toEqual(['node', 'dist/src/main.js']);
    expect(instructions.some((i) => i.op === 'ENTRYPOINT')).toBe(false);
  });
});

describe('.dockerignore', () => {
  it('keeps local state and build output out of the build context', () => {
    const entries = readFileSync(join(root, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim());
    for (const entry of ['node_modules', 'dist', '.data', '.git', '.env']) expect(entries).toContain(entry);
  });
});

interface Instruction {
  op: string;
  args: string;
}

/** Instructions with line continuations joined and comments dropped. */
function parseDockerfile(text: string): Instruction[] {
  const joined = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [, op, args] = /^(\S+)\s*(.*)$/.exec(line)!;
      return { op: op.toUpperCase(), args: args.replace(/\s+/g, ' ').trim() };
    });
}

function splitStages(instructions: Instruction[]): Instruction[][] {
  const stages: Instruction[][] = [];
  for (const instruction of instructions) {
    if (instruction.op === 'FROM') stages.push([instruction]);
    else if (stages.length > 0) stages[stages.length - 1].push(instruction);
  }
  return stages;
}

function cpuMillis(value: string | number): number {
  const text = String(value);
  return text.endsWith('m') ? Number(text.slice(0, -1)) : Number(text) * 1000;
}

function bytes(value: string): number {
  const units: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, K: 1e3, M: 1e6, G: 1e9 };
  const [, number, unit] = /^(\d+(?:\.\d+)?)([A-Za-z]*)$/.exec(String(value))!;
  return Number(number) * (unit ? units[unit] : 1);
}
