// Package certificates is Kubernetes' certificates API as a cluster runs
// it, over the simulated PKI of package pki: the cluster's CA, the API
// server's strategy for CertificateSigningRequests, kube-controller-manager's
// signers, and the API server's client-certificate authentication.
//
//   - CA is the cluster's certificate authority ("kubernetes", as kubeadm
//     and kind name it): it issued the admin's client certificate (Admin,
//     which chainsaw's kubeconfig carries) and signs approved requests.
//   - Create, Update and Approve are the API server's strategy: a request
//     must hold a PEM certificate request whose signature checks, a
//     signerName and usages; the API server fills spec.username and
//     spec.groups with the requester's identity and drops the status a
//     create sends; a plain update keeps spec and status (they change only
//     through the approval and status subresources); the approval
//     subresource writes only status.conditions, Approved or Denied.
//   - Sign is the signing controller of kube-controller-manager for the
//     built-in signers (kubernetes.io/kube-apiserver-client,
//     kube-apiserver-client-kubelet and kubelet-serving): an approved
//     request whose usages the signer allows gets its certificate in
//     status.certificate, valid for a year (or spec.expirationSeconds)
//     from five minutes before now; one it refuses gets a Failed
//     condition. Requests to other signers wait for a signer the cluster
//     does not run, as in a cluster without it.
//   - Authenticate is the API server's x509 authenticator: a client
//     certificate the CA issued, valid now and for client auth, is the
//     user of its subject's CN, in the groups of its O values plus
//     system:authenticated.
//
// Nothing here checks RBAC (who may create, approve or sign requests):
// genplay enforces none (engine/doc.go).
package certificates
