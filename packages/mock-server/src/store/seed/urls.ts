/**
 * The URLs of seeded records, by VCS host and CI tool: a repository's web page and module source
 * prefix, a git module source, and a seeded run's commit, pull request and build pages. They draw
 * nothing.
 *
 * Not here: the URLs of runs made through the API (`domain/simulate.ts` builds them from the
 * workspace's `repoUrl`), backend locations and state paths (`explorer.ts`).
 *
 * @module
 */
import type { VcsType } from '@iacm/sdk/contract';
import type { RepoInfo, WsInfo } from './context.js';

/** The web URL of a repository on its VCS host. */
export function repoUrl(vcs: VcsType, org: string, name: string): string {
  switch (vcs) {
    case 'github':
      return `https://github.com/${org}/${name}`;
    case 'gitlab':
      return `https://gitlab.com/${org}/${name}`;
    case 'bitbucket':
      return `https://bitbucket.org/${org}/${name}`;
    case 'azuredevops':
      return `https://dev.azure.com/${org}/infrastructure/_git/${name}`;
    default:
      return `https://us-east-1.console.aws.amazon.com/codesuite/codecommit/repositories/${name}/browse?region=us-east-1`;
  }
}

/** The host-relative prefix of a repository's module sources (`github.com/acme/infra-network`). */
export function moduleVcsPrefix(vcs: VcsType, org: string, name: string): string {
  switch (vcs) {
    case 'github':
      return `github.com/${org}/${name}`;
    case 'gitlab':
      return `gitlab.com/${org}/${name}`;
    case 'bitbucket':
      return `bitbucket.org/${org}/${name}`;
    case 'azuredevops':
      return `dev.azure.com/${org}/infrastructure/_git/${name}`;
    default:
      return `git-codecommit.us-east-1.amazonaws.com/v1/repos/${name}`;
  }
}

/**
 * A git module source (`git::https://github.com/acme/terraform-modules.git//vpc?ref=v1.2.3`): the
 * organisation's shared modules repository, on GitLab for a GitLab repository, GitHub otherwise.
 */
export function moduleGitSource(vcs: VcsType, org: string, name: string, version: string): string {
  return `git::https://${vcs === 'gitlab' ? 'gitlab.com' : 'github.com'}/${org}/terraform-modules.git//${name}?ref=v${version}`;
}

/** A commit's page on its repository's VCS host. */
export function commitUrl(repo: RepoInfo, sha: string): string {
  switch (repo.vcs) {
    case 'github':
      return `${repo.url}/commit/${sha}`;
    case 'gitlab':
      return `${repo.url}/-/commit/${sha}`;
    case 'bitbucket':
      return `${repo.url}/commits/${sha}`;
    case 'azuredevops':
      return `${repo.url}/commit/${sha}`;
    default:
      return `https://us-east-1.console.aws.amazon.com/codesuite/codecommit/repositories/${repo.name}/commit/${sha}?region=us-east-1`;
  }
}

/** A pull (merge) request's page on its repository's VCS host. */
export function pullRequestUrl(repo: RepoInfo, id: string): string {
  switch (repo.vcs) {
    case 'github':
      return `${repo.url}/pull/${id}`;
    case 'gitlab':
      return `${repo.url}/-/merge_requests/${id}`;
    case 'bitbucket':
      return `${repo.url}/pull-requests/${id}`;
    case 'azuredevops':
      return `${repo.url}/pullrequest/${id}`;
    default:
      return `https://us-east-1.console.aws.amazon.com/codesuite/codecommit/repositories/${repo.name}/pull-requests/${id}/details?region=us-east-1`;
  }
}

/** A run's build page on the workspace's CI tool (`envUuid`: the env0 or Semaphore project). */
export function buildUrl(ws: WsInfo, org: string, buildId: string, envUuid: string, sha: string): string {
  switch (ws.runner) {
    case 'github-actions':
      return `${ws.repo.url}/actions/runs/${buildId}`;
    case 'gitlab-pipelines':
      return `${ws.repo.url}/-/pipelines/${buildId}`;
    case 'bitbucket-pipelines':
      return `${ws.repo.url}/pipelines/results/${buildId}`;
    case 'azure-pipelines':
      return `https://dev.azure.com/${org}/infrastructure/_build/results?buildId=${buildId}`;
    case 'jenkins':
      return `https://jenkins.${org}.example/job/${ws.name}/${buildId}/`;
    case 'semaphore':
      return `https://${org}.semaphoreci.com/workflows/${envUuid}?pipeline_id=${buildId}`;
    case 'atlantis':
      return `https://atlantis.${org}.example/jobs/${ws.name}-${sha}-${buildId}`;
    case 'env0':
      return `https://app.env0.com/p/${envUuid}/environments/${ws.id}/deployments/${buildId}`;
    default:
      return `https://ci.${org}.example/builds/${buildId}`;
  }
}
