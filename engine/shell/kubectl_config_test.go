//go:build !(js && wasm)

package shell_test

import "testing"

// kubectl config's subcommands edit the kubeconfig in the scratch folder
// (chainsaw gives each script one, as KUBECONFIG) and print what kubectl
// prints (kubectl_config.go, one method each).
func TestKubectlConfigEditsTheKubeconfig(t *testing.T) {
	runScriptCases(t, []scriptCase{
		{
			name: "clusters, users and contexts are set, listed, renamed, used and deleted",
			pass: true,
			ops: `- script:
    content: |
      set -e
      printf 'x' > ca.crt
      kubectl config set-cluster b --server=https://b.example --certificate-authority=ca.crt --embed-certs=true
      kubectl config set-cluster a --server=https://a.example --insecure-skip-tls-verify=true
      kubectl config set-credentials zed --token=t
      kubectl config set-credentials amy --username=u --password=p
      kubectl config set-context dev --cluster=a --user=amy --namespace=apps
      kubectl config set-context dev --namespace=web
      kubectl config get-clusters
      kubectl config get-users
      kubectl config use-context dev
      kubectl config set-context --current --user=zed
      kubectl config rename-context dev prod
      kubectl config current-context
      kubectl config view --minify -o jsonpath='{.contexts[0].context.namespace}'
      kubectl config view --minify -o jsonpath='{.contexts[0].context.user}'
      kubectl config set-context bctx --cluster=b
      kubectl config use-context bctx
      kubectl config view --minify --raw -o jsonpath='{.clusters[0].cluster.certificate-authority-data}'
      kubectl config delete-cluster a
      kubectl config delete-user amy
      kubectl config delete-context prod
      kubectl config get-clusters
    check:
      ($error): null
      ($stdout): "Cluster \"b\" set.\nCluster \"a\" set.\nUser \"zed\" set.\nUser \"amy\" set.\nContext \"dev\" created.\nContext \"dev\" modified.\nNAME\na\nb\nchainsaw\nNAME\namy\nchainsaw\nzed\nSwitched to context \"dev\".\nContext \"dev\" modified.\nContext \"dev\" renamed to \"prod\".\nprod\nwebzedContext \"bctx\" created.\nSwitched to context \"bctx\".\neA==deleted cluster a from /tmp/chainsaw-kubeconfig-1\ndeleted user amy from /tmp/chainsaw-kubeconfig-1\ndeleted context prod from /tmp/chainsaw-kubeconfig-1\nNAME\nb\nchainsaw\n"`,
		},
		{
			name: "what cannot be done says so as kubectl does",
			ops: `- script:
    content: |
      kubectl config set-cluster a --server=https://a.example
      kubectl config delete-user nobody
      kubectl config rename-context x y
      kubectl config set-credentials u --client-certificate=missing.crt --embed-certs=true
    check:
      ($stdout): ""`,
			failure: "error: cannot delete user nobody, not in /tmp/chainsaw-kubeconfig-1\n          error: cannot rename the context \"x\", it's not in /tmp/chainsaw-kubeconfig-1\n          error: error reading client-certificate data from missing.crt: open missing.crt: No such file or directory",
		},
	})
}
