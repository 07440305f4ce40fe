import { getMetadataStorage } from 'class-validator';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadAll } from 'js-yaml';
import { AppConfig, loadConfig } from '../../../src/config/app-config';

/**
 * Static checks on docker/Dockerfile and docker/k8s/*.yaml: the mistakes that pass `kubectl apply`
 * or `docker build` yet break a rollout (selectors that match nothing, probes on the wrong port,
 * a Secret key nobody defines, a ConfigMap number the API server refuses, a root container), and
 * (docs/decisions/0110-manifests-two-tiers.md) the kustomization rendered here as kustomize would (its `resources` with its
 * `images` applied; no cluster, no kustomize binary): every variable named is a setting, each tier
 * gets a configuration production accepts, writable paths are volumes sized from the limits, one
 * image everywhere, probes on real routes.
 */

const root = resolve(__dirname, '../../..');
const k8sDir = join(root, 'docker/k8s');
const NAME_LABEL = 'app.kubernetes.io/name';
const COMPONENT_LABEL = 'app.kubernetes.io/component';
const APP = 'plat-api';
const REQUIRED_SECRET_KEYS = [
  'DATABASE_URL',
  'REDIS_URL',
  'ORIGIN_KEY',
  'CURSOR_SECRET',
  'MEDIA_URL_SECRET',
  'ERASED_BAN_SECRET',
];
const OPTIONAL_SECRET_KEYS = ['MEDIA_S3_ACCESS_KEY_ID', 'MEDIA_S3_SECRET_ACCESS_KEY'];
const REQUIRED_CONFIG_KEYS = ['PORT', 'PUBLIC_HOST', 'LOG_LEVEL', 'TRUST_PROXY', 'MEDIA_S3_BUCKET'];
/** Valid stand-ins for the Secret's placeholders, so the rendered environment can be loaded as production would. */
const SECRET_STAND_INS: Record<string, string> = {
  DATABASE_URL: 'postgres://plat:secret@postgres:5432/plat',
  REDIS_URL: 'redis://redis:6379/0',
  ORIGIN_KEY: 'A'.repeat(43),
  CURSOR_SECRET: 'c'.repeat(32),
  MEDIA_URL_SECRET: 'm'.repeat(32),
  ERASED_BAN_SECRET: 'e'.repeat(32),
  MEDIA_S3_ACCESS_KEY_ID: 'access-key',
  MEDIA_S3_SECRET_ACCESS_KEY: 'secret-key',
};
/** Variables read by Node, libuv or OpenTelemetry rather than by AppConfig. */
const SYSTEM_VARIABLE = /^(UV_THREADPOOL_SIZE|NODE_OPTIONS|NODE_ENV|OTEL_[A-Z0-9_]+)$/;
const CONFIG_NAMES = new Set(
  getMetadataStorage()
    .getTargetValidationMetadatas(AppConfig, '', true, false)
    .map((metadata) => metadata.propertyName),
);

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
const written: Manifest[] = resourceFiles.flatMap((file) => loadYaml(file).map((doc) => ({ file, doc })));
const applied: Manifest[] = written.map(({ file, doc }) => ({ file, doc: withImages(doc) }));
const secretExample = loadYaml('secret.example.yaml')[0];

/** kustomize's `images` transformer: a container image named like an entry gets its newName and newTag. */
function withImages(doc: Obj): Obj {
  const copy: Obj = JSON.parse(JSON.stringify(doc));
  for (const c of podSpecOf(copy)?.containers ?? []) {
    const name = String(c.image).split(/[:@]/)[0];
    const entry = (kustomization.images ?? []).find((image: Obj) => image.name === name);
    if (entry) c.image = `${entry.newName ?? name}:${entry.newTag}`;
  }
  return copy;
}

function podSpecOf(doc: Obj): Obj | undefined {
  return ['Deployment', 'Job'].includes(doc.kind) ? doc.spec.template.spec : undefined;
}

function only(kind: string): Obj {
  const found = applied.filter((m) => m.doc.kind === kind);
  expect(found).toHaveLength(1);
  return found[0].doc;
}

function all(kind: string): Obj[] {
  return applied.filter((m) => m.doc.kind === kind).map((m) => m.doc);
}

function named(kind: string, name: string): Obj {
  const found = all(kind).filter((doc) => doc.metadata.name === name);
  expect(found).toHaveLength(1);
  return found[0];
}

const TIERS = [
  { name: 'plat-api', component: 'api', role: 'api' },
  { name: 'plat-worker', component: 'worker', role: 'worker' },
];
const deployment = () => named('Deployment', 'plat-api');
const podSpec = () => deployment().spec.template.spec;
const container = () => containerOf(deployment());
const workloads = () => applied.filter((m) => podSpecOf(m.doc)).map((m) => m.doc);

function containerOf(workload: Obj): Obj {
  const containers: Obj[] = podSpecOf(workload)!.containers;
  expect(containers).toHaveLength(1);
  return containers[0];
}

function matches(selector: Obj, labels: Obj): boolean {
  return Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);
}

/** A probe or Service port: a named or numbered port of the container. */
function containerPortOf(port: string | number, of: Obj = container()): number | undefined {
  const ports: Obj[] = of.ports ?? [];
  const hit = ports.find((p) => p.name === port || p.containerPort === port);
  return hit?.containerPort;
}

function configMapData(name: string): Obj {
  return named('ConfigMap', name).data ?? {};
}

/**
 * The environment a container starts with, as the kubelet builds it: envFrom ConfigMaps and
 * Secrets, then `env` (which wins). Secret values are valid stand-ins for the example's placeholders.
 */
function environmentOf(c: Obj): Record<string, string> {
  const env: Record<string, string> = {};
  const secretValue = (name: string, key: string) => {
    expect(name).toBe(secretExample.metadata.name);
    expect(Object.keys(secretExample.stringData)).toContain(key);
    expect(Object.keys(SECRET_STAND_INS)).toContain(key);
    return SECRET_STAND_INS[key];
  };
  for (const from of c.envFrom ?? []) {
    if (from.configMapRef) Object.assign(env, configMapData(from.configMapRef.name));
    if (from.secretRef) {
      for (const key of Object.keys(secretExample.stringData))
        env[key] = secretValue(from.secretRef.name, key);
    }
  }
  for (const entry of c.env ?? []) {
    if (entry.value !== undefined) env[entry.name] = String(entry.value);
    else if (entry.valueFrom?.secretKeyRef) {
      env[entry.name] = secretValue(entry.valueFrom.secretKeyRef.name, entry.valueFrom.secretKeyRef.key);
    } else if (entry.valueFrom?.configMapKeyRef) {
      env[entry.name] = configMapData(entry.valueFrom.configMapKeyRef.name)[
        entry.valueFrom.configMapKeyRef.key
      ];
    }
  }
  return env;
}

/** The config a container would boot with: NODE_ENV=production comes from the image (docker/Dockerfile). */
function configOf(c: Obj, checkServiceSettings = true): AppConfig {
  return loadConfig({ NODE_ENV: 'production', ...environmentOf(c) }, { checkServiceSettings });
}

function emptyDirLimit(workload: Obj, mountPath: string): number {
  const c = containerOf(workload);
  const mount = (c.volumeMounts ?? []).find((m: Obj) => m.mountPath === mountPath);
  expect(mount).toBeDefined();
  const volume = (podSpecOf(workload)!.volumes ?? []).find((v: Obj) => v.name === mount.name);
  expect(volume?.emptyDir?.sizeLimit).toBeDefined();
  return bytes(volume.emptyDir.sizeLimit);
}

/** Whether `path` lies on a volume mounted in the container (writable under a read-only root). */
function onVolume(c: Obj, path: string): boolean {
  return (c.volumeMounts ?? []).some(
    (m: Obj) => !m.readOnly && (path === m.mountPath || path.startsWith(`${m.mountPath}/`)),
  );
}

describe('docker/k8s kustomization', () => {
  it('lists every manifest in the folder except the example Secret, and each listed file exists', () => {
    expect(kustomization.apiVersion).toBe('kustomize.config.k8s.io/v1beta1');
    expect(kustomization.kind).toBe('Kustomization');
    for (const file of resourceFiles) expect(existsSync(join(k8sDir, file))).toBe(true);
    const expected = [
      ...yamlFiles.filter((f) => f !== 'kustomization.yaml' && f !== 'secret.example.yaml'),
      'jobs/migrate.yaml',
    ];
    expect([...resourceFiles].sort()).toEqual(expected.sort());
  });

  it('never applies the example Secret over the real one', () => {
    expect(resourceFiles).not.toContain('secret.example.yaml');
    expect(applied.filter((m) => m.doc.kind === 'Secret')).toEqual([]);
  });

  it('has the expected kinds and API versions (0110-manifests-two-tiers: worker tier, Ingress, NetworkPolicy, monitoring)', () => {
    const kinds = applied.map((m) => `${m.doc.apiVersion} ${m.doc.kind} ${m.doc.metadata.name}`).sort();
    expect(kinds).toEqual(
      [
        'v1 ConfigMap plat-api-config',
        'apps/v1 Deployment plat-api',
        'apps/v1 Deployment plat-worker',
        'v1 Service plat-api',
        'v1 Service plat-metrics',
        'networking.k8s.io/v1 Ingress plat-api',
        'networking.k8s.io/v1 Ingress plat-api-imports',
        'networking.k8s.io/v1 NetworkPolicy plat-api',
        'networking.k8s.io/v1 NetworkPolicy plat-worker',
        'networking.k8s.io/v1 NetworkPolicy plat-migrate',
        'autoscaling/v2 HorizontalPodAutoscaler plat-api',
        'autoscaling/v2 HorizontalPodAutoscaler plat-worker',
        'policy/v1 PodDisruptionBudget plat-api',
        'policy/v1 PodDisruptionBudget plat-worker',
        'monitoring.coreos.com/v1 ServiceMonitor plat-api',
        'monitoring.coreos.com/v1 PrometheusRule plat-api',
        'batch/v1 Job plat-api-migrate',
      ].sort(),
    );
    expect(secretExample.apiVersion).toBe('v1');
    expect(secretExample.kind).toBe('Secret');
  });

  it(`labels every object ${NAME_LABEL}: ${APP}`, () => {
    for (const { doc } of [...applied, { file: 'secret.example.yaml', doc: secretExample }]) {
      expect(doc.metadata?.labels?.[NAME_LABEL]).toBe(APP);
    }
    for (const workload of workloads()) expect(workload.spec.template.metadata.labels[NAME_LABEL]).toBe(APP);
  });

  it('runs one image everywhere: every Deployment and the migrate Job get it from `images` (0110-manifests-two-tiers)', () => {
    const [image] = kustomization.images;
    expect(kustomization.images).toHaveLength(1);
    expect(
      workloads()
        .map((w) => w.kind)
        .sort(),
    ).toEqual(['Deployment', 'Deployment', 'Job']);
    for (const { doc } of written.filter((m) => podSpecOf(m.doc))) {
      // Written untagged, so no workload can keep a version of its own when `images` changes.
      expect(containerOf(doc).image).toBe(image.name);
    }
    for (const workload of workloads())
      expect(containerOf(workload).image).toBe(`${image.newName}:${image.newTag}`);
  });
});

describe.each(TIERS)('Deployment $name (PLAT_ROLE=$role)', (tier) => {
  const workload = () => named('Deployment', tier.name);
  const c = () => containerOf(workload());

  it('is the tier its labels say, with PLAT_ROLE set in its own env', () => {
    expect(workload().metadata.labels[COMPONENT_LABEL]).toBe(tier.component);
    expect(workload().spec.template.metadata.labels[COMPONENT_LABEL]).toBe(tier.component);
    expect(c().env.find((e: Obj) => e.name === 'PLAT_ROLE')?.value).toBe(tier.role);
    expect(configOf(c()).PLAT_ROLE).toBe(tier.role);
  });

  it('names only variables that are settings of AppConfig or known to Node, libuv or OpenTelemetry', () => {
    const names = Object.keys(environmentOf(c()));
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((name) => !CONFIG_NAMES.has(name) && !SYSTEM_VARIABLE.test(name))).toEqual([]);
  });

  it('boots in production: every required variable and a lasting media store reach the pod', () => {
    const env = environmentOf(c());
    for (const key of [...REQUIRED_SECRET_KEYS, 'MEDIA_S3_BUCKET']) expect(env[key]).toBeTruthy();
    const config = configOf(c());
    expect(config.NODE_ENV).toBe('production');
    expect(config.MEDIA_S3_BUCKET).toBeTruthy();
    expect(config.migrateOnBoot).toBe(false);
  });

  it('selects its own pods only', () => {
    const spec = workload().spec;
    expect(spec.selector.matchLabels[NAME_LABEL]).toBe(APP);
    expect(spec.selector.matchLabels[COMPONENT_LABEL]).toBe(tier.component);
    expect(matches(spec.selector.matchLabels, spec.template.metadata.labels)).toBe(true);
    for (const other of TIERS.filter((t) => t !== tier)) {
      expect(
        matches(spec.selector.matchLabels, named('Deployment', other.name).spec.template.metadata.labels),
      ).toBe(false);
    }
  });

  it('probes real routes of the health controller on the container port', () => {
    const controller = readFileSync(join(root, 'src/infrastructure/health/health.controller.ts'), 'utf8');
    expect(controller).toContain("@Controller('health')");
    expect(controller).toContain("@Get('live')");
    expect(controller).toContain("@Get('ready')");
    expect(c().livenessProbe.httpGet.path).toBe('/health/live');
    expect(c().readinessProbe.httpGet.path).toBe('/health/ready');
    expect(c().startupProbe.httpGet.path).toMatch(/^\/health\/(live|ready)$/);
    for (const probe of [c().livenessProbe, c().readinessProbe, c().startupProbe]) {
      expect(containerPortOf(probe.httpGet.port, c())).toBe(Number(configOf(c()).PORT));
    }
  });

  it('serves metrics on a port of their own, which the pod annotations point Prometheus at (0064-observability-metrics-traceparent-and-hpa)', () => {
    const metricsPort = containerPortOf('metrics', c());
    expect(metricsPort).toBeDefined();
    expect(metricsPort).not.toBe(containerPortOf('http', c()));
    expect(configOf(c()).METRICS_PORT).toBe(metricsPort);
    const annotations = workload().spec.template.metadata.annotations;
    expect(annotations['prometheus.io/scrape']).toBe('true');
    expect(Number(annotations['prometheus.io/port'])).toBe(metricsPort);
    expect(annotations['prometheus.io/path']).toBe('/metrics');
  });

  it('is locked down: non-root, read-only root filesystem, no capabilities, no escalation', () => {
    const pod = workload().spec.template.spec;
    const sc = c().securityContext;
    expect(pod.securityContext.runAsNonRoot ?? sc.runAsNonRoot).toBe(true);
    const uid = sc.runAsUser ?? pod.securityContext.runAsUser;
    if (uid !== undefined) expect(uid).not.toBe(0);
    expect(sc.readOnlyRootFilesystem).toBe(true);
    expect(sc.allowPrivilegeEscalation).toBe(false);
    expect(sc.capabilities.drop).toContain('ALL');
    expect(sc.capabilities.add ?? []).toEqual([]);
    expect(sc.privileged ?? false).toBe(false);
    expect(pod.automountServiceAccountToken).toBe(false);
  });

  it('writes only to declared, size-limited volumes on disk: /tmp and every directory setting', () => {
    const config = configOf(c());
    const volumes: Obj[] = workload().spec.template.spec.volumes ?? [];
    for (const mount of c().volumeMounts ?? []) expect(volumes.map((v) => v.name)).toContain(mount.name);
    for (const volume of volumes) {
      expect(volume.emptyDir).toBeDefined();
      expect(volume.emptyDir.sizeLimit).toBeDefined();
      // A memory-backed emptyDir would count against the memory limit.
      expect(volume.emptyDir.medium ?? '').toBe('');
    }
    expect(onVolume(c(), '/tmp')).toBe(true);
    const env = environmentOf(c());
    if (tier.role !== 'api') expect(onVolume(c(), config.mediaScratchDir)).toBe(true);
    else expect(env.MEDIA_SCRATCH_DIR).toBeUndefined();
    if (!config.MEDIA_S3_BUCKET) expect(onVolume(c(), config.MEDIA_DIR)).toBe(true);
  });

  it('requests and limits the ephemeral storage its volumes may use, so the scheduler finds room', () => {
    const volumes: Obj[] = workload().spec.template.spec.volumes ?? [];
    const total = volumes.reduce((sum, v) => sum + bytes(v.emptyDir.sizeLimit), 0);
    const { requests, limits } = c().resources;
    expect(bytes(requests['ephemeral-storage'])).toBeGreaterThanOrEqual(total);
    expect(bytes(limits['ephemeral-storage'])).toBeGreaterThanOrEqual(bytes(requests['ephemeral-storage']));
  });

  it('sets CPU and memory requests and limits, requests not above limits, at least 1 GiB of memory', () => {
    const { requests, limits } = c().resources;
    for (const key of ['cpu', 'memory']) {
      expect(requests[key]).toBeDefined();
      expect(limits[key]).toBeDefined();
    }
    expect(cpuMillis(requests.cpu)).toBeLessThanOrEqual(cpuMillis(limits.cpu));
    expect(bytes(requests.memory)).toBeLessThanOrEqual(bytes(limits.memory));
    // A 100-megapixel decode (MEDIA_MAX_IMAGE_PIXELS) did not fit in 512Mi with the rest.
    expect(bytes(limits.memory)).toBeGreaterThanOrEqual(2 ** 30);
  });

  it('takes every required secret from a Secret key that the example Secret documents; the S3 keys optionally', () => {
    const env: Obj[] = c().env ?? [];
    const fromSecret = env.filter((e) => e.valueFrom?.secretKeyRef);
    expect(fromSecret.map((e) => e.name).sort()).toEqual(
      [...REQUIRED_SECRET_KEYS, ...OPTIONAL_SECRET_KEYS].sort(),
    );
    for (const e of fromSecret) {
      const ref = e.valueFrom.secretKeyRef;
      expect(ref.name).toBe(secretExample.metadata.name);
      expect(ref.key).toBe(e.name);
      expect(Object.keys(secretExample.stringData ?? {})).toContain(ref.key);
      // Without static keys the SDK uses the workload's identity; the required ones never fall back.
      expect(ref.optional ?? false).toBe(OPTIONAL_SECRET_KEYS.includes(ref.key));
    }
    for (const ref of (c().envFrom ?? []).filter((e: Obj) => e.secretRef)) {
      expect(ref.secretRef.name).toBe(secretExample.metadata.name);
    }
  });

  it('references only ConfigMaps that the kustomization applies', () => {
    const configMaps = all('ConfigMap').map((doc) => doc.metadata.name);
    const refs = [
      ...(c().envFrom ?? []).filter((e: Obj) => e.configMapRef).map((e: Obj) => e.configMapRef.name),
      ...(c().env ?? [])
        .filter((e: Obj) => e.valueFrom?.configMapKeyRef)
        .map((e: Obj) => e.valueFrom.configMapKeyRef.name),
    ];
    expect(refs.length).toBeGreaterThan(0);
    for (const name of refs) expect(configMaps).toContain(name);
  });

  it('is scaled by an HPA whose floor is its replica count, with a PDB that still lets a drain evict one', () => {
    const hpa = named('HorizontalPodAutoscaler', tier.name);
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: tier.name });
    expect(hpa.spec.minReplicas).toBe(workload().spec.replicas);
    expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas);
    const pdb = named('PodDisruptionBudget', tier.name);
    expect(matches(pdb.spec.selector.matchLabels, workload().spec.template.metadata.labels)).toBe(true);
    expect(typeof pdb.spec.minAvailable).toBe('number');
    expect(pdb.spec.minAvailable).toBeGreaterThan(0);
    expect(pdb.spec.minAvailable).toBeLessThan(hpa.spec.minReplicas);
  });
});

describe('api Deployment', () => {
  it('runs 3 replicas', () => {
    expect(deployment().spec.replicas).toBe(3);
  });

  it('listens on the port the ConfigMap gives the app', () => {
    expect(containerPortOf('http')).toBe(3000);
    expect(Number(configMapData('plat-api-config').PORT)).toBe(containerPortOf('http'));
  });

  it('drains before stopping: preStop sleep plus the app shutdown timeout fit in the grace period', () => {
    const command: string[] = container().lifecycle.preStop.exec.command;
    expect(command[0]).toBe('sleep');
    const sleep = Number(command[1]);
    expect(sleep).toBeGreaterThan(0);
    const shutdownSeconds = configOf(container()).SHUTDOWN_TIMEOUT_MS / 1000;
    // Past the grace period the kubelet SIGKILLs the pod mid-request.
    expect(podSpec().terminationGracePeriodSeconds).toBeGreaterThan(sleep + shutdownSeconds);
  });
});

describe('worker Deployment (0110-manifests-two-tiers)', () => {
  const worker = () => named('Deployment', 'plat-worker');
  const workerContainer = () => containerOf(worker());

  it('has a scratch volume covering MEDIA_SCRATCH_MAX_BYTES plus a margin, at MEDIA_SCRATCH_DIR', () => {
    const config = configOf(workerContainer());
    expect(config.MEDIA_SCRATCH_DIR).toBeDefined();
    const limit = emptyDirLimit(worker(), config.MEDIA_SCRATCH_DIR!);
    expect(limit).toBeGreaterThanOrEqual(config.MEDIA_SCRATCH_MAX_BYTES + 128 * 2 ** 20);
    // The budget itself covers the largest audio and video (loadConfig refuses less).
    expect(config.MEDIA_SCRATCH_MAX_BYTES).toBeGreaterThanOrEqual(
      Math.max(config.MEDIA_MAX_AUDIO_BYTES, config.MEDIA_MAX_VIDEO_BYTES),
    );
    // /tmp is a volume of its own: nothing else eats the scratch room.
    expect(emptyDirLimit(worker(), '/tmp')).toBeGreaterThan(0);
  });

  it('runs at least two pods, so a worker that dies mid-job has a peer to take its jobs over', () => {
    expect(worker().spec.replicas).toBeGreaterThanOrEqual(2);
  });

  it('is scaled on the jobs waiting (not delayed or running ones) through prometheus-adapter, beside CPU', () => {
    const hpa = named('HorizontalPodAutoscaler', 'plat-worker');
    const external = hpa.spec.metrics.find((m: Obj) => m.type === 'External');
    expect(external.external.metric.name).toBe('plat_jobs_waiting');
    expect(external.external.target.type).toBe('AverageValue');
    expect(Number(external.external.target.averageValue)).toBeGreaterThan(0);
    expect(hpa.spec.metrics.some((m: Obj) => m.type === 'Resource' && m.resource.name === 'cpu')).toBe(true);
    const rule = adapterRules().externalRules.find((r: Obj) => r.name.as === 'plat_jobs_waiting');
    expect(rule.seriesQuery).toMatch(/^plat_jobs_waiting\{/);
    // Every pod of both tiers reports the one shared queue per kind: max over pods, summed over kinds.
    expect(rule.metricsQuery).toBe(
      'sum(max(<<.Series>>{<<.LabelMatchers>>}) by (kind, <<.GroupBy>>)) by (<<.GroupBy>>)',
    );
    expect(exportedMetrics()).toContain('plat_jobs_waiting');
  });

  it('is published by no Service but the headless metrics one', () => {
    const labels = worker().spec.template.metadata.labels;
    for (const service of all('Service')) {
      expect(matches(service.spec.selector, labels)).toBe(service.metadata.name === 'plat-metrics');
    }
  });
});

describe('database connections', () => {
  it('cannot open more than a default PostgreSQL allows, over both tiers at their HPA ceiling mid-rollout', () => {
    let total = 0;
    for (const tier of TIERS) {
      const workload = named('Deployment', tier.name);
      const pods =
        named('HorizontalPodAutoscaler', tier.name).spec.maxReplicas +
        workload.spec.strategy.rollingUpdate.maxSurge;
      total += pods * configOf(containerOf(workload)).DATABASE_POOL_SIZE;
    }
    // max_connections defaults to 100: 3 are reserved for superusers, keep a few for operators.
    expect(total).toBeLessThanOrEqual(90);
  });
});

describe('ConfigMap', () => {
  it('carries the non-secret settings, the S3 bucket included, as strings (the API server refuses numbers and booleans)', () => {
    const data = only('ConfigMap').data;
    for (const key of REQUIRED_CONFIG_KEYS) expect(Object.keys(data)).toContain(key);
    for (const value of Object.values(data)) expect(typeof value).toBe('string');
  });

  it('holds nothing that belongs in the Secret', () => {
    const data = only('ConfigMap').data;
    for (const key of [...REQUIRED_SECRET_KEYS, ...OPTIONAL_SECRET_KEYS])
      expect(Object.keys(data)).not.toContain(key);
  });

  it('holds nothing tier-specific: the role, the pool and the scratch directory are in each Deployment', () => {
    const data = only('ConfigMap').data;
    for (const key of ['PLAT_ROLE', 'DATABASE_POOL_SIZE', 'MEDIA_SCRATCH_DIR'])
      expect(Object.keys(data)).not.toContain(key);
  });
});

describe('secret.example.yaml', () => {
  it('documents every key the Deployments read with a placeholder, never a real value', () => {
    const data: Obj = secretExample.stringData;
    expect(secretExample.data).toBeUndefined();
    expect(Object.keys(data).sort()).toEqual([...REQUIRED_SECRET_KEYS, ...OPTIONAL_SECRET_KEYS].sort());
    for (const value of Object.values(data)) expect(value).toMatch(/change-me/);
  });
});

describe('Service', () => {
  it('selects the api pods only and forwards to the container port', () => {
    const service = named('Service', APP);
    expect(matches(service.spec.selector, deployment().spec.template.metadata.labels)).toBe(true);
    for (const port of service.spec.ports) expect(containerPortOf(port.targetPort)).toBe(3000);
  });

  it('never publishes the metrics port', () => {
    const metricsPort = containerPortOf('metrics');
    for (const port of named('Service', APP).spec.ports) {
      expect(containerPortOf(port.targetPort)).not.toBe(metricsPort);
    }
  });
});

describe('Ingress (0110-manifests-two-tiers)', () => {
  const ingress = () => named('Ingress', APP);
  const annotation = (name: string) => ingress().metadata.annotations[`nginx.ingress.kubernetes.io/${name}`];
  const apiConfig = () => configOf(container());

  it('routes PUBLIC_HOST to the api Service port, over TLS', () => {
    const [rule] = ingress().spec.rules;
    expect(rule.host).toBe(apiConfig().publicHost);
    expect(ingress().spec.tls[0].hosts).toContain(rule.host);
    const backend = rule.http.paths[0].backend.service;
    expect(backend.name).toBe(APP);
    expect(named('Service', APP).spec.ports.map((p: Obj) => p.name)).toContain(backend.port.name);
    expect(rule.http.paths[0].path).toBe('/');
  });

  it('lets the largest upload through (the controller’s default 1m refuses every upload over 1 MiB)', () => {
    const config = apiConfig();
    const largest = Math.max(
      config.MEDIA_MAX_IMAGE_BYTES,
      config.MEDIA_MAX_AUDIO_BYTES,
      config.MEDIA_MAX_VIDEO_BYTES,
      config.MEDIA_MAX_FILE_BYTES,
    );
    expect(nginxSize(annotation('proxy-body-size'))).toBeGreaterThanOrEqual(largest);
  });

  it('buffers uploads and waits longer for the pod than the pod gives a request', () => {
    expect(annotation('proxy-request-buffering')).toBe('on');
    const requestSeconds = apiConfig().REQUEST_TIMEOUT_MS / 1000;
    expect(Number(annotation('proxy-read-timeout'))).toBeGreaterThan(requestSeconds);
    expect(Number(annotation('proxy-send-timeout'))).toBeGreaterThan(requestSeconds);
  });

  it('lets the largest import archive through on its one path, buffered as uploads are (0237)', () => {
    const imports = named('Ingress', 'plat-api-imports');
    const annotationOf = (name: string) =>
      imports.metadata.annotations[`nginx.ingress.kubernetes.io/${name}`];
    const [rule] = imports.spec.rules;
    expect(rule.host).toBe(apiConfig().publicHost);
    expect(imports.spec.tls[0].hosts).toContain(rule.host);
    expect(rule.http.paths).toEqual([
      {
        path: '/v1/spaces/imports',
        pathType: 'Exact',
        backend: ingress().spec.rules[0].http.paths[0].backend,
      },
    ]);
    expect(nginxSize(annotationOf('proxy-body-size'))).toBeGreaterThanOrEqual(
      apiConfig().IMPORT_MAX_ARCHIVE_BYTES,
    );
    expect(annotationOf('proxy-request-buffering')).toBe('on');
    const requestSeconds = apiConfig().REQUEST_TIMEOUT_MS / 1000;
    expect(Number(annotationOf('proxy-read-timeout'))).toBeGreaterThan(requestSeconds);
    expect(Number(annotationOf('proxy-send-timeout'))).toBeGreaterThan(requestSeconds);
    // Every other path keeps the uploads' limit.
    expect(nginxSize(annotation('proxy-body-size'))).toBeLessThan(apiConfig().IMPORT_MAX_ARCHIVE_BYTES);
  });
});

describe('NetworkPolicy (0110-manifests-two-tiers)', () => {
  const policyFor = (workload: Obj) => {
    const found = all('NetworkPolicy').filter((p) =>
      matches(p.spec.podSelector.matchLabels, workload.spec.template.metadata.labels),
    );
    expect(found).toHaveLength(1);
    expect([...found[0].spec.policyTypes].sort()).toEqual(['Egress', 'Ingress']);
    return found[0].spec;
  };
  const egressPorts = (spec: Obj) =>
    (spec.egress as Obj[]).flatMap((rule) => (rule.ports as Obj[]).map((p) => `${p.protocol}/${p.port}`));
  const ingressRules = (spec: Obj) =>
    (spec.ingress ?? []).map((rule: Obj) => ({
      from: rule.from.map(
        (peer: Obj) => peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'],
      ),
      ports: rule.ports.map((p: Obj) => p.port),
    }));

  it('lets the ingress controller reach the api HTTP port and Prometheus its metrics port, nothing else', () => {
    const spec = policyFor(deployment());
    expect(ingressRules(spec)).toEqual([
      { from: ['ingress-nginx'], ports: ['http'] },
      { from: ['monitoring'], ports: ['metrics'] },
    ]);
  });

  it('lets only Prometheus reach a worker, on its metrics port', () => {
    expect(ingressRules(policyFor(named('Deployment', 'plat-worker')))).toEqual([
      { from: ['monitoring'], ports: ['metrics'] },
    ]);
  });

  it('lets both tiers reach DNS, PostgreSQL, Redis, S3 (HTTPS) and an OTLP collector, on ports their containers name', () => {
    for (const tier of TIERS) {
      const workload = named('Deployment', tier.name);
      const spec = policyFor(workload);
      expect(egressPorts(spec).sort()).toEqual(
        ['TCP/443', 'TCP/53', 'TCP/5432', 'TCP/6379', 'UDP/53', 'TCP/4317', 'TCP/4318'].sort(),
      );
      for (const rule of spec.ingress) {
        for (const port of rule.ports)
          expect(containerPortOf(port.port, containerOf(workload))).toBeDefined();
      }
    }
  });

  it('lets the migrate Job reach PostgreSQL only', () => {
    const spec = policyFor(only('Job'));
    expect(spec.ingress ?? []).toEqual([]);
    expect(egressPorts(spec).sort()).toEqual(['TCP/53', 'TCP/5432', 'UDP/53'].sort());
  });
});

describe('monitoring (0110-manifests-two-tiers)', () => {
  it('scrapes the metrics port of both tiers through a headless Service the ServiceMonitor selects', () => {
    const service = named('Service', 'plat-metrics');
    expect(service.spec.clusterIP).toBe('None');
    const monitor = only('ServiceMonitor');
    expect(matches(monitor.spec.selector.matchLabels, service.metadata.labels)).toBe(true);
    const [endpoint] = monitor.spec.endpoints;
    expect(service.spec.ports.map((p: Obj) => p.name)).toContain(endpoint.port);
    expect(endpoint.path).toBe('/metrics');
    for (const tier of TIERS) {
      const workload = named('Deployment', tier.name);
      expect(matches(service.spec.selector, workload.spec.template.metadata.labels)).toBe(true);
      expect(containerPortOf(service.spec.ports[0].targetPort, containerOf(workload))).toBe(
        configOf(containerOf(workload)).METRICS_PORT,
      );
    }
    // The tier label the worker alert reads.
    expect(monitor.spec.podTargetLabels).toContain(COMPONENT_LABEL);
  });

  const rules = () => (only('PrometheusRule').spec.groups as Obj[]).flatMap((group) => group.rules as Obj[]);

  it('alerts on 5xx ratio, p99 latency, Postgres and Redis down, pool saturation, workers down, queue backlog, job failures and age, outbox age and media failures', () => {
    expect(
      rules()
        .map((rule) => rule.alert)
        .sort(),
    ).toEqual(
      [
        'PlatHttp5xxRatioHigh',
        'PlatHttpLatencyP99High',
        'PlatPostgresDown',
        'PlatRedisDown',
        'PlatDatabasePoolSaturated',
        'PlatWorkersDown',
        'PlatJobQueueBacklog',
        'PlatJobsFailing',
        'PlatJobWaitingTooLong',
        'PlatOutboxBacklogOld',
        'PlatMediaProcessingFailing',
        'PlatMediaRefusedRatioHigh',
      ].sort(),
    );
    for (const rule of rules()) {
      expect(rule.for).toMatch(/^\d+m$/);
      expect(['critical', 'warning']).toContain(rule.labels.severity);
      expect(rule.annotations.summary).toBeTruthy();
      expect(rule.annotations.description).toBeTruthy();
    }
  });

  it('alerts on stalled, failing and waiting background work with the agreed expressions (0127-worker-scaling-on-waiting-jobs)', () => {
    const expr = (alert: string) =>
      String(rules().find((rule) => rule.alert === alert)?.expr)
        .replace(/\s+/g, ' ')
        .trim();
    expect(expr('PlatJobsFailing')).toBe(
      'sum by (namespace, kind) (rate(plat_jobs_total{outcome="failed"}[15m])) > 0',
    );
    expect(expr('PlatJobWaitingTooLong')).toBe(
      'max by (namespace, kind) (plat_job_oldest_waiting_seconds{}) > 600',
    );
    expect(expr('PlatOutboxBacklogOld')).toBe(
      'max by (namespace, outbox) (plat_outbox_oldest_seconds{}) > 300',
    );
    expect(expr('PlatMediaProcessingFailing')).toContain(
      'plat_media_processing_failures_total{reason!="refused"}',
    );
    // The ratio's denominator names the media job by the kind the code registers.
    const mediaSource = readFileSync(join(root, 'src/media/events/media.events.ts'), 'utf8');
    const probeJob = /PROBE_JOB = '([^']+)'/.exec(mediaSource)![1];
    expect(expr('PlatMediaRefusedRatioHigh')).toContain(
      `plat_jobs_total{kind="${probeJob}",outcome="completed"}`,
    );
  });

  it('reads only series the service exports (or Prometheus’ own `up`)', () => {
    const exported = new Set([...exportedMetrics(), 'up']);
    for (const rule of rules()) {
      // A series name is followed by its selector or range: `name{…}` or `name[…]`.
      const used = [...String(rule.expr).matchAll(/([a-z_:][a-z0-9_:]*)\s*[{[]/g)].map((m) => m[1]);
      expect(used.length).toBeGreaterThan(0);
      for (const name of used)
        expect({ alert: rule.alert, name, exported: exported.has(name) }).toEqual({
          alert: rule.alert,
          name,
          exported: true,
        });
    }
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    // Each alert is explained to the operator.
    expect(
      rules()
        .filter((rule) => !readme.includes(`\`${rule.alert}\``))
        .map((rule) => rule.alert),
    ).toEqual([]);
  });
});

describe('scaling on request rate (0064-observability-metrics-traceparent-and-hpa)', () => {
  const rate = () => named('HorizontalPodAutoscaler', APP).spec.metrics.find((m: Obj) => m.type === 'Pods');

  it('scales on requests per second per pod beside CPU', () => {
    const hpa = named('HorizontalPodAutoscaler', APP);
    expect(rate().pods.metric.name).toBe('http_requests_per_second');
    expect(rate().pods.target.type).toBe('AverageValue');
    expect(Number(rate().pods.target.averageValue)).toBeGreaterThan(0);
    const cpu = hpa.spec.metrics.find((m: Obj) => m.type === 'Resource' && m.resource.name === 'cpu');
    expect(cpu.resource.target.type).toBe('Utilization');
    expect(cpu.resource.target.averageUtilization).toBeGreaterThan(0);
    // Utilization is a percentage of the request: without one the HPA cannot compute it.
    expect(container().resources.requests.cpu).toBeDefined();
  });

  it('documents the prometheus-adapter rule that makes that metric from the counter the app exposes', () => {
    const [adapter] = (
      loadAll(readFileSync(join(k8sDir, 'monitoring/prometheus-adapter-config.yaml'), 'utf8')) as Obj[]
    ).filter(Boolean);
    expect(adapter.kind).toBe('ConfigMap');
    const rule = (adapterRules().rules as Obj[]).find((r) => r.name.as === rate().pods.metric.name);
    expect(rule).toBeDefined();
    expect(rule!.seriesQuery).toMatch(/^http_requests_total\{/);
    expect(rule!.metricsQuery).toMatch(/rate\(<<\.Series>>/);
    expect(rule!.resources.overrides.pod.resource).toBe('pod');
    expect(exportedMetrics()).toContain('http_requests_total');
  });
});

describe('docker/k8s/jobs/migrate.yaml', () => {
  const job = () => only('Job');
  const jobContainer = () => containerOf(job());

  it('is a Job that runs the migrate script once, never restarting in place', () => {
    expect(job().metadata.labels[NAME_LABEL]).toBe(APP);
    expect(job().spec.template.spec.restartPolicy).toBe('Never');
    expect(jobContainer().command).toEqual(['node', 'dist/scripts/migrate.js']);
    const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
    expect(scripts.migrate).toBe('node dist/scripts/migrate.js');
  });

  it('runs the Deployment image, configured like it, with the database secret it alone needs', () => {
    expect(jobContainer().image).toBe(container().image);
    expect(jobContainer().envFrom).toEqual(container().envFrom);
    const databaseUrl = jobContainer().env.find((entry: Obj) => entry.name === 'DATABASE_URL');
    expect(databaseUrl.valueFrom.secretKeyRef).toEqual({ name: 'plat-api-secrets', key: 'DATABASE_URL' });
    // `npm run migrate` loads the config without the service checks (0118-production-config-refusals.md).
    expect(() => configOf(jobContainer(), false)).not.toThrow();
    const names = Object.keys(environmentOf(jobContainer()));
    expect(names.filter((name) => !CONFIG_NAMES.has(name) && !SYSTEM_VARIABLE.test(name))).toEqual([]);
  });

  it('is locked down like the Deployment', () => {
    expect(job().spec.template.spec.securityContext.runAsNonRoot).toBe(true);
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

function adapterRules(): Obj {
  const [adapter] = (
    loadAll(readFileSync(join(k8sDir, 'monitoring/prometheus-adapter-config.yaml'), 'utf8')) as Obj[]
  ).filter(Boolean);
  return (loadAll(adapter.data['config.yaml']) as Obj[])[0];
}

/** Names of the Prometheus series registered in src (a histogram also exports _bucket, _sum, _count). */
function exportedMetrics(): string[] {
  const names: string[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith('.ts')) {
        const text = readFileSync(path, 'utf8');
        for (const m of text.matchAll(/\b(counter|gauge|histogram)\(\s*'([a-z_:][a-z0-9_:]*)'/g)) {
          names.push(m[2]);
          if (m[1] === 'histogram') names.push(`${m[2]}_bucket`, `${m[2]}_sum`, `${m[2]}_count`);
        }
      }
    }
  };
  visit(join(root, 'src'));
  return names;
}

/** nginx sizes: k, m, g are powers of 1024. */
function nginxSize(value: string): number {
  const [, number, unit] = /^(\d+)([kmg]?)$/i.exec(String(value))!;
  return (
    Number(number) *
    ({ '': 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30 } as Record<string, number>)[unit.toLowerCase()]
  );
}

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
  const units: Record<string, number> = {
    Ki: 2 ** 10,
    Mi: 2 ** 20,
    Gi: 2 ** 30,
    k: 1e3,
    K: 1e3,
    M: 1e6,
    G: 1e9,
  };
  const [, number, unit] = /^(\d+(?:\.\d+)?)([A-Za-z]*)$/.exec(String(value))!;
  return Number(number) * (unit ? units[unit] : 1);
}
