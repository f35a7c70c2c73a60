{{/*
Arguments of `scoby run`. With the default values they are those of deploy/20-deployment.yaml
(the chart tests compare the rendered chart with deploy/release/scoby.yaml).
*/}}
{{- define "scoby.args" -}}
- run
- {{ if .Values.leaderElection.enabled }}--leader-elect{{ else }}--no-leader-elect{{ end }}
{{- with .Values.leaderElection.leaseName }}
- --leader-election-lease-name={{ . }}
{{- end }}
- --metrics-bind-address=:{{ .Values.metrics.port }}
{{- end }}
