/**
 * The Kubernetes manifests, checked offline against the Kubernetes API's own OpenAPI schemas
 * (kubernetes-models: one validator per kind, generated from the upstream OpenAPI document), and
 * for the cross-references no schema sees: a Service's selector and target ports, a probe's named
 * port, a PodDisruptionBudget's selector, the ConfigMaps and Secrets a pod mounts or reads
 * (issue 38 point 13).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Service } from 'kubernetes-models/v1/Service';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';

const file = path.resolve(import.meta.dirname, '../../deploy/kubernetes/docs-appliance.yaml');
const text = fs.readFileSync(file, 'utf8');
const docs = YAML.parseAllDocuments(text).map((d) => d.toJS() as { apiVersion: string; kind: string; metadata: { name: string } } & Record<string, unknown>);

type Validating = { validate(): void };
const MODELS: Record<string, new (o: never) => Validating> = {
  'v1/ConfigMap': ConfigMap as never,
  'v1/Service': Service as never,
  'apps/v1/Deployment': Deployment as never,
  'apps/v1/StatefulSet': StatefulSet as never,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget as never,
};

interface Container {
  name: string;
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  readinessProbe?: { httpGet?: { port: string | number } };
  livenessProbe?: { httpGet?: { port: string | number } };
}
interface PodTemplate {
  metadata: { labels: Record<string, string> };
  spec: { containers: Container[]; volumes?: { name: string; configMap?: { name: string }; secret?: { secretName: string } }[] };
}
const workloads = docs.filter((d) => d.kind === 'Deployment' || d.kind === 'StatefulSet') as unknown as { kind: string; metadata: { name: string }; spec: { selector: { matchLabels: Record<string, string> }; template: PodTemplate } }[];
const matches = (selector: Record<string, string>, labels: Record<string, string>) => Object.entries(selector).every(([k, v]) => labels[k] === v);

describe('deploy/kubernetes/docs-appliance.yaml', () => {
  it('every object is valid against the Kubernetes OpenAPI schema of its kind', () => {
    expect(docs.map((d) => `${d.apiVersion}/${d.kind}`).sort()).toEqual(
      ['apps/v1/Deployment', 'apps/v1/StatefulSet', 'policy/v1/PodDisruptionBudget', 'v1/ConfigMap', 'v1/ConfigMap', 'v1/Service', 'v1/Service', 'v1/Service'].sort(),
    );
    for (const d of docs) {
      const Model = MODELS[`${d.apiVersion}/${d.kind}`];
      expect(Model, `${d.kind} ${d.metadata.name}`).toBeDefined();
      expect(() => new Model!(d as never).validate(), `${d.kind} ${d.metadata.name}`).not.toThrow();
    }
  });

  it('the validator refuses what the API server would (a probe port of the wrong type, an unknown field type)', () => {
    const sts = structuredClone(docs.find((d) => d.kind === 'StatefulSet')!) as unknown as { spec: { replicas: unknown } };
    sts.spec.replicas = 'one';
    expect(() => new StatefulSet(sts as never).validate()).toThrow(/replicas/);
  });

  it('the single writer is a one-pod StatefulSet with its own ReadWriteOnce volume; the replicas are a Deployment with a disruption budget', () => {
    const sts = workloads.find((w) => w.kind === 'StatefulSet')! as unknown as { spec: { replicas: number; volumeClaimTemplates: { spec: { accessModes: string[] } }[] } };
    expect(sts.spec.replicas).toBe(1);
    expect(sts.spec.volumeClaimTemplates[0]!.spec.accessModes).toEqual(['ReadWriteOnce']);
    const site = workloads.find((w) => w.kind === 'Deployment')!;
    const pdb = docs.find((d) => d.kind === 'PodDisruptionBudget') as unknown as { spec: { minAvailable: number; selector: { matchLabels: Record<string, string> } } };
    expect(matches(pdb.spec.selector.matchLabels, site.spec.template.metadata.labels)).toBe(true);
    expect(pdb.spec.minAvailable).toBeLessThan((site as unknown as { spec: { replicas: number } }).spec.replicas);
  });

  it('selectors, named ports, probes and the ConfigMaps and Secrets pods use fit together', () => {
    for (const w of workloads) {
      expect(matches(w.spec.selector.matchLabels, w.spec.template.metadata.labels), w.metadata.name).toBe(true);
      for (const c of w.spec.template.spec.containers) {
        const names = new Set((c.ports ?? []).map((p) => p.name));
        for (const probe of [c.readinessProbe, c.livenessProbe]) if (probe?.httpGet && typeof probe.httpGet.port === 'string') expect(names, `${w.metadata.name} probe port`).toContain(probe.httpGet.port);
      }
    }
    // Every Service selects a workload and targets one of its named ports.
    for (const s of docs.filter((d) => d.kind === 'Service') as unknown as { metadata: { name: string }; spec: { selector: Record<string, string>; ports: { targetPort: string }[] } }[]) {
      const selected = workloads.filter((w) => matches(s.spec.selector, w.spec.template.metadata.labels));
      expect(selected.length, s.metadata.name).toBe(1);
      const portNames = selected[0]!.spec.template.spec.containers.flatMap((c) => (c.ports ?? []).map((p) => p.name));
      for (const p of s.spec.ports) expect(portNames, s.metadata.name).toContain(p.targetPort);
    }
    // A ConfigMap or Secret a pod needs is in the file or created by a command in its header.
    const header = text.split('\n---')[0]!;
    const inFile = new Set(docs.filter((d) => d.kind === 'ConfigMap').map((d) => d.metadata.name));
    for (const w of workloads) {
      for (const v of w.spec.template.spec.volumes ?? []) {
        if (v.configMap) expect(inFile.has(v.configMap.name) || header.includes(`create configmap ${v.configMap.name}`), v.configMap.name).toBe(true);
      }
      for (const c of w.spec.template.spec.containers) {
        for (const e of c.env ?? []) {
          const ref = e.valueFrom?.secretKeyRef;
          if (ref) expect(header, `secret ${ref.name}`).toMatch(new RegExp(`create secret generic ${ref.name} .*--from-literal=${ref.key}=`));
        }
      }
    }
  });
});
