// The podman-runnable variant of deploy/kubernetes/docs-appliance.yaml, for kube-test.sh.
// `podman kube play` (4.3) runs Pods, Deployments, PersistentVolumeClaims and the ConfigMaps of the
// same file; everything else is kept as shipped. What this changes, and why (measured on podman
// 4.3.1 with netavark + aardvark-dns):
//
//  1. Every name gets the run id as prefix (RUN-…): podman's pods, volumes and secrets are
//     host-wide, and a ConfigMap volume or an emptyDir becomes a podman volume named after it.
//  2. StatefulSet docs-appliance → a Pod RUN-docs-appliance-0 (the StatefulSet's pod name) with
//     the template's spec; its volumeClaimTemplate `data` → a PersistentVolumeClaim
//     RUN-data-docs-appliance-0 (Kubernetes' name for it). podman does not run StatefulSets.
//  3. Services dropped (podman ignores them; no Service names resolve). Each replica URL whose
//     host is a Service (replica.upstreamUrl, upstreamSiteUrl) is rewritten to the pod that
//     Service selects, by its DNS name on the test network, and the Service's targetPort
//     resolved to the container's port: http://docs-appliance-admin:3000 →
//     http://RUN-docs-appliance-0:3000.
//  4. Deployment docs-site (replicas: 3) → REPLICAS (2, the PodDisruptionBudget's minAvailable)
//     Deployments RUN-docs-site-1 … with replicas: 1 each: podman honours replicas, but names an
//     emptyDir's volume after the volume, so the pods of one Deployment would share one /data and
//     one /tmp, which Kubernetes never does (an emptyDir is per pod). Each copy's emptyDirs get
//     names of their own (RUN-docs-site-1-data, …), the appliance's too.
//  5. A volumeMount with subPath from a ConfigMap: podman 4.3 mounts the whole ConfigMap at the
//     mount's path (config.json became a directory holding config.json). It is mounted at the
//     directory beside it named after the volume (/etc/docs-appliance/config/), and an env value
//     naming the old path (DOCS_APPLIANCE_CONFIG) names the file in it.
//  6. Probes dropped: podman turns an httpGet probe into `curl -f http://localhost:<port><path>`
//     inside the container (a named port becomes port 0, httpHeaders are lost, the image has no
//     curl) and ignores readinessProbe. kube-test.sh makes each probe's request itself, from the
//     host, with the shipped fields (facts.json: path, port resolved to its number, headers).
//  7. The image → IMAGE (the locally built test image).
//  8. The appliance's project: repository, branch, gitHost and publish removed: a directory
//     project at its shipped sourceDir (/srv/docs/acme), in the docs-source PVC (added, with the
//     claimName the manifest uses), which kube-test.sh fills with the example docs.
//  9. The customer CA ConfigMap (created by the operator) is generated here from CA_PEM.
// 10. secretKeyRef env kept, its Secret names prefixed; the Secrets are not in the file: podman
//     4.3.1 stores a played Secret as its YAML but its secretKeyRef reads JSON ("secret … is not
//     valid JSON"), so kube-test.sh creates them with `podman secret create` as a JSON map of
//     base64 values, what secretKeyRef reads (facts.json lists them).
// 11. PodDisruptionBudget dropped: podman has no eviction API.
// 12. A label docs-appliance.test/run=RUN on every pod, for the clean-up.
// 13. The containers' ports dropped: podman 4.3 publishes every containerPort on the host at the
//     same number (the second pod failed with "bind: address already in use", and host ports 3000
//     and 8080 belong to other work here). Nothing needs them: pods reach each other by DNS name
//     and the host reaches each pod at its address on the test network; the probes' named ports
//     and the Services' targetPorts are resolved from the shipped ports (facts.json, point 3).
// Kept as shipped: security contexts (runAsUser/Group 10001, runAsNonRoot, fsGroup, seccomp,
// readOnlyRootFilesystem, allowPrivilegeEscalation, capabilities), resources, env,
// terminationGracePeriodSeconds, the other volumes and mounts, both configs but for 3 and 8.
//
// Environment: MANIFEST, OUT (a directory), RUN, IMAGE, CA_PEM, REPLICAS. Writes OUT/volumes.yaml
// (the PVCs), OUT/appliance.yaml, OUT/site.yaml and OUT/facts.json.
import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const MANIFEST = env('MANIFEST');
const OUT = env('OUT');
const RUN = env('RUN');
const IMAGE = env('IMAGE');
const CA_PEM = env('CA_PEM');
const REPLICAS = Number(process.env.REPLICAS ?? 2);
const RUN_LABEL = 'docs-appliance.test/run';

const docs = parseAllDocuments(fs.readFileSync(MANIFEST, 'utf8')).map((d) => {
  if (d.errors.length) throw new Error(`${MANIFEST}: ${d.errors[0].message}`);
  return d.toJS();
});
const one = (kind, name) => {
  const found = docs.filter((d) => d.kind === kind && (!name || d.metadata.name === name));
  if (found.length !== 1) throw new Error(`${MANIFEST}: expected one ${kind}${name ? ` ${name}` : ''}, found ${found.length}`);
  return found[0];
};
const known = new Set(['ConfigMap', 'StatefulSet', 'Service', 'Deployment', 'PodDisruptionBudget']);
for (const d of docs) if (!known.has(d.kind)) throw new Error(`${MANIFEST}: ${d.kind} ${d.metadata.name}: this variant does not know what to do with it`);

const p = (name) => `${RUN}-${name}`;
const clone = (v) => structuredClone(v);
const matches = (selector, labels) => Object.entries(selector).every(([k, v]) => labels?.[k] === v);

const statefulSet = one('StatefulSet');
const deployment = one('Deployment');
const services = docs.filter((d) => d.kind === 'Service');
const appliancePod = `${p(statefulSet.metadata.name)}-0`;

/** A pod spec made runnable (points 1, 5, 6, 7); `emptyPrefix` names its emptyDir volumes. */
function podSpec(spec, emptyPrefix) {
  const s = clone(spec);
  const renamed = new Map(); // volume name in the spec → podman name
  for (const v of s.volumes ?? []) {
    if (v.configMap) v.configMap.name = p(v.configMap.name);
    if (v.persistentVolumeClaim) v.persistentVolumeClaim.claimName = p(v.persistentVolumeClaim.claimName);
    if (v.emptyDir) renamed.set(v.name, `${emptyPrefix}-${v.name}`);
  }
  for (const c of s.containers) {
    c.image = IMAGE;
    delete c.ports;
    delete c.readinessProbe;
    delete c.livenessProbe;
    delete c.startupProbe;
    for (const e of c.env ?? []) {
      if (e.valueFrom?.secretKeyRef) e.valueFrom.secretKeyRef.name = p(e.valueFrom.secretKeyRef.name);
    }
    for (const m of c.volumeMounts ?? []) {
      const volume = s.volumes.find((v) => v.name === m.name);
      if (m.subPath && volume?.configMap) {
        const dir = path.posix.join(path.posix.dirname(m.mountPath), m.name);
        for (const e of c.env ?? []) if (e.value === m.mountPath) e.value = path.posix.join(dir, m.subPath);
        m.mountPath = dir;
        delete m.subPath;
      }
      if (renamed.has(m.name)) m.name = renamed.get(m.name);
    }
  }
  for (const v of s.volumes ?? []) if (renamed.has(v.name)) v.name = renamed.get(v.name);
  return s;
}

/** What kube-test.sh does for a probe: the request, with the named port resolved. */
function probes(spec) {
  const c = spec.containers[0];
  const port = (ref) => (typeof ref === 'number' ? ref : c.ports.find((x) => x.name === ref)?.containerPort);
  const out = {};
  for (const kind of ['readinessProbe', 'livenessProbe']) {
    const g = c[kind]?.httpGet;
    if (!g) continue;
    const number = port(g.port);
    if (!number) throw new Error(`${c.name}: ${kind} names port ${g.port}, which the container does not declare`);
    out[kind] = { path: g.path, port: number, headers: Object.fromEntries((g.httpHeaders ?? []).map((h) => [h.name, h.value])) };
  }
  return out;
}

const labelled = (template) => ({ ...template.metadata, labels: { ...template.metadata.labels, [RUN_LABEL]: RUN } });

// ConfigMaps: the appliance's project from a directory (8), the replicas' URLs to the pod (3).
const applianceConfigMap = clone(one('ConfigMap', 'docs-appliance-config'));
const applianceConfig = JSON.parse(applianceConfigMap.data['config.json']);
if (applianceConfig.projects?.length !== 1) throw new Error('docs-appliance-config: expected one project');
const project = applianceConfig.projects[0];
for (const k of ['repository', 'branch', 'gitHost', 'publish']) delete project[k];
applianceConfigMap.metadata.name = p(applianceConfigMap.metadata.name);
applianceConfigMap.data['config.json'] = `${JSON.stringify(applianceConfig, null, 2)}\n`;

const siteConfigMap = clone(one('ConfigMap', 'docs-site-config'));
const siteConfig = JSON.parse(siteConfigMap.data['config.json']);
const rewrites = [];
const applianceLabels = statefulSet.spec.template.metadata.labels;
const applianceContainer = statefulSet.spec.template.spec.containers[0];
for (const key of ['upstreamUrl', 'upstreamSiteUrl']) {
  const url = new URL(siteConfig.replica[key]);
  const service = services.find((s) => s.metadata.name === url.hostname);
  if (!service) throw new Error(`docs-site-config: replica.${key} ${url} names no Service of the manifest`);
  if (!matches(service.spec.selector, applianceLabels)) throw new Error(`Service ${service.metadata.name} does not select the appliance`);
  const servicePort = service.spec.ports.find((x) => x.port === Number(url.port || 80));
  if (!servicePort) throw new Error(`Service ${service.metadata.name} has no port ${url.port}`);
  const target = servicePort.targetPort;
  const containerPort = typeof target === 'number' ? target : applianceContainer.ports.find((x) => x.name === target)?.containerPort;
  if (!containerPort) throw new Error(`Service ${service.metadata.name}: targetPort ${target} is no port of the appliance`);
  const before = url.toString();
  url.hostname = appliancePod;
  url.port = String(containerPort);
  siteConfig.replica[key] = url.toString().replace(/\/$/, '');
  rewrites.push(`replica.${key} ${before.replace(/\/$/, '')} → ${siteConfig.replica[key]}`);
}
siteConfigMap.metadata.name = p(siteConfigMap.metadata.name);
siteConfigMap.data['config.json'] = `${JSON.stringify(siteConfig, null, 2)}\n`;

// The customer CA, the one ConfigMap both pods use that the manifest does not hold (9).
const caNames = new Set(
  [statefulSet, deployment].flatMap((w) => w.spec.template.spec.volumes.filter((v) => v.configMap).map((v) => v.configMap.name)),
);
for (const d of docs) if (d.kind === 'ConfigMap') caNames.delete(d.metadata.name);
if (caNames.size !== 1) throw new Error(`expected one ConfigMap the operator creates, found ${[...caNames].join(', ') || 'none'}`);
const caName = [...caNames][0];
const caConfigMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: p(caName) }, data: { 'ca.pem': fs.readFileSync(CA_PEM, 'utf8') } };

// The PVCs: the StatefulSet's volumeClaimTemplate (2) and the docs source (8).
const claims = [];
for (const t of statefulSet.spec.volumeClaimTemplates) {
  claims.push({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: p(`${t.metadata.name}-${statefulSet.metadata.name}-0`) }, spec: clone(t.spec) });
}
const applianceSpec = podSpec(statefulSet.spec.template.spec, appliancePod);
for (const t of statefulSet.spec.volumeClaimTemplates) {
  applianceSpec.volumes.push({ name: t.metadata.name, persistentVolumeClaim: { claimName: p(`${t.metadata.name}-${statefulSet.metadata.name}-0`) } });
}
for (const v of statefulSet.spec.template.spec.volumes) {
  if (v.persistentVolumeClaim) {
    claims.push({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: p(v.persistentVolumeClaim.claimName) },
      spec: { accessModes: ['ReadOnlyMany'], resources: { requests: { storage: '1Gi' } } },
    });
  }
}
const docsSourceMount = applianceContainer.volumeMounts.find((m) => m.name === 'docs-source');
if (!docsSourceMount || !project.sourceDir.startsWith(`${docsSourceMount.mountPath}/`)) throw new Error(`the project's sourceDir ${project.sourceDir} is not under the docs-source mount`);

const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: appliancePod, labels: labelled(statefulSet.spec.template).labels }, spec: applianceSpec };

const sites = [];
for (let i = 1; i <= REPLICAS; i++) {
  const name = p(`${deployment.metadata.name}-${i}`);
  const d = clone(deployment);
  d.metadata = { name, labels: { ...deployment.metadata.labels, [RUN_LABEL]: RUN } };
  d.spec.replicas = 1;
  d.spec.template.metadata = labelled(deployment.spec.template);
  d.spec.template.spec = podSpec(deployment.spec.template.spec, `${name}-pod-0`);
  sites.push(d);
}

const yaml = (list) => list.map((d) => stringify(d, { lineWidth: 0 })).join('---\n');
fs.mkdirSync(OUT, { recursive: true });
fs.writeFileSync(path.join(OUT, 'volumes.yaml'), yaml(claims));
fs.writeFileSync(path.join(OUT, 'appliance.yaml'), yaml([applianceConfigMap, caConfigMap, pod]));
fs.writeFileSync(path.join(OUT, 'site.yaml'), yaml([siteConfigMap, caConfigMap, ...sites]));

const secretsOf = (spec) => {
  const out = {};
  for (const c of spec.containers) for (const e of c.env ?? []) {
    const ref = e.valueFrom?.secretKeyRef;
    if (ref) (out[ref.name] ??= []).push(ref.key);
  }
  return out;
};
const facts = {
  run: RUN,
  label: `${RUN_LABEL}=${RUN}`,
  projectId: project.id,
  orgId: project.orgId,
  domain: project.domain,
  sourceDir: project.sourceDir,
  docsSourceMount: docsSourceMount.mountPath,
  docsSourceVolume: p('docs-source'),
  appliance: { pod: appliancePod, container: `${appliancePod}-${applianceContainer.name}`, probes: probes(statefulSet.spec.template.spec), secrets: secretsOf(applianceSpec) },
  sites: sites.map((d) => ({ pod: `${d.metadata.name}-pod-0`, container: `${d.metadata.name}-pod-0-${d.spec.template.spec.containers[0].name}` })),
  siteProbes: probes(deployment.spec.template.spec),
  siteSecrets: secretsOf(sites[0].spec.template.spec),
  volumes: [...claims.map((c) => c.metadata.name), applianceConfigMap.metadata.name, siteConfigMap.metadata.name, caConfigMap.metadata.name],
  rewrites,
  // How long a replica's long-poll may stay on a connection nobody answers any more: its request
  // timeout, replica.waitSeconds (config/schema.ts: 25 by default) + 30 s (app/replica/follower.ts).
  // app/replica/follower.ts POLL_MARGIN_S
  followerTimeoutS: (siteConfig.replica.waitSeconds ?? 25) + 10,
  dropped: docs.filter((d) => ['Service', 'PodDisruptionBudget'].includes(d.kind)).map((d) => `${d.kind} ${d.metadata.name}`),
};
fs.writeFileSync(path.join(OUT, 'facts.json'), `${JSON.stringify(facts, null, 2)}\n`);
