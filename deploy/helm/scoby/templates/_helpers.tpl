{{/*
Arguments of `scoby run`. With the default values they are those of deploy/20-deployment.yaml
(the chart tests compare the rendered chart with deploy/release/scoby.yaml). Every flag of
`scoby run --help` is reachable: through a value below or through extraArgs (the chart tests check).
*/}}
{{- define "scoby.args" -}}
- run
{{- if .Values.leaderElection.enabled }}
- --leader-elect
- --leader-election-mode={{ .Values.leaderElection.mode }}
{{- else }}
- --no-leader-elect
{{- end }}
{{- with .Values.leaderElection.leaseName }}
- --leader-election-lease-name={{ . }}
{{- end }}
- --metrics-bind-address=:{{ .Values.metrics.port }}
{{- if not (kindIs "invalid" .Values.concurrency) }}
- --concurrency={{ .Values.concurrency }}
{{- end }}
{{- if not (kindIs "invalid" .Values.apiRateLimit.qps) }}
- --kube-api-qps={{ .Values.apiRateLimit.qps }}
{{- end }}
{{- if not (kindIs "invalid" .Values.apiRateLimit.burst) }}
- --kube-api-burst={{ .Values.apiRateLimit.burst }}
{{- end }}
{{- with .Values.timeouts.apiRequest }}
- --api-request-timeout={{ . }}
{{- end }}
{{- with .Values.timeouts.reconcile }}
- --reconcile-timeout={{ . }}
{{- end }}
{{- with .Values.timeouts.watchSilence }}
- --watch-silence-timeout={{ . }}
{{- end }}
{{- with .Values.timeouts.gracefulShutdown }}
- --graceful-shutdown-timeout={{ . }}
{{- end }}
{{- with .Values.resyncPeriod }}
- --resync-period={{ . }}
{{- end }}
{{- with .Values.hookAddressRefresh }}
- --hook-address-refresh={{ . }}
{{- end }}
{{- with .Values.logFormat }}
- --log-format={{ . }}
{{- end }}
{{- range .Values.extraArgs }}
- {{ . | quote }}
{{- end }}
{{- end }}

{{/* The ServiceAccount the controller runs as, bound to its roles. */}}
{{- define "scoby.serviceAccountName" -}}
{{- .Values.serviceAccount.name | default "scoby-controller" -}}
{{- end }}

{{/* repository@digest, else repository:tag (the chart's appVersion when the tag is empty). */}}
{{- define "scoby.image" -}}
{{- if .Values.image.digest -}}
{{ .Values.image.repository }}@{{ .Values.image.digest }}
{{- else -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}
{{- end }}

{{/*
Flags of `scoby run` that extraArgs may not carry: those a value sets (two sources of one setting),
and those of development runs, which start an in-memory API server instead of using the cluster.
*/}}
{{- define "scoby.refusedExtraArgs" -}}
--leader-elect: "set the value leaderElection.enabled instead"
--no-leader-elect: "set the value leaderElection.enabled instead"
--leader-election-lease-name: "set the value leaderElection.leaseName instead"
--leader-election-mode: "set the value leaderElection.mode instead"
--metrics-bind-address: "set the value metrics.port instead"
--concurrency: "set the value concurrency instead"
--kube-api-qps: "set the value apiRateLimit.qps instead"
--kube-api-burst: "set the value apiRateLimit.burst instead"
--api-request-timeout: "set the value timeouts.apiRequest instead"
--reconcile-timeout: "set the value timeouts.reconcile instead"
--watch-silence-timeout: "set the value timeouts.watchSilence instead"
--graceful-shutdown-timeout: "set the value timeouts.gracefulShutdown instead"
--resync-period: "set the value resyncPeriod instead"
--hook-address-refresh: "set the value hookAddressRefresh instead"
--log-format: "set the value logFormat instead"
--log-level: "set the value logLevel instead"
--form-factor-plugin: "set the value plugins instead"
--hook-module: "set the value hookModules instead"
--embedded: "a development flag: it runs an in-memory API server instead of using the cluster"
--kubeconfig-out: "a development flag: it runs an in-memory API server instead of using the cluster"
--cluster: "a development flag: it runs an in-memory API server instead of using the cluster"
--sample: "a development flag: it runs an in-memory API server instead of using the cluster"
{{- end }}
