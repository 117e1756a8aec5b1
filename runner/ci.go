package runner

import (
	"os"

	"github.com/ferridriver/ferridriver/messages"
)

// detectCI describes the CI system from its environment variables, for the
// meta message (as @cucumber/ci-environment does for the usual systems).
func detectCI() *messages.Ci {
	env := os.Getenv
	git := func(remote, revision, branch, tag string) *messages.Git {
		if revision == "" {
			return nil
		}
		g := &messages.Git{Remote: remote, Revision: revision}
		if branch != "" {
			g.Branch = messages.Ptr(branch)
		}
		if tag != "" {
			g.Tag = messages.Ptr(tag)
		}
		return g
	}
	opt := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	switch {
	case env("GITHUB_ACTIONS") == "true":
		server := env("GITHUB_SERVER_URL")
		repo := server + "/" + env("GITHUB_REPOSITORY")
		return &messages.Ci{Name: "GitHub Actions", URL: opt(repo + "/actions/runs/" + env("GITHUB_RUN_ID")), BuildNumber: opt(env("GITHUB_RUN_ID")),
			Git: git(repo+".git", env("GITHUB_SHA"), env("GITHUB_HEAD_REF"), "")}
	case env("GITLAB_CI") == "true":
		return &messages.Ci{Name: "GitLab", URL: opt(env("CI_JOB_URL")), BuildNumber: opt(env("CI_JOB_ID")),
			Git: git(env("CI_REPOSITORY_URL"), env("CI_COMMIT_SHA"), env("CI_COMMIT_BRANCH"), env("CI_COMMIT_TAG"))}
	case env("JENKINS_URL") != "":
		return &messages.Ci{Name: "Jenkins", URL: opt(env("BUILD_URL")), BuildNumber: opt(env("BUILD_NUMBER")),
			Git: git(env("GIT_URL"), env("GIT_COMMIT"), env("GIT_LOCAL_BRANCH"), "")}
	case env("CIRCLECI") == "true":
		return &messages.Ci{Name: "CircleCI", URL: opt(env("CIRCLE_BUILD_URL")), BuildNumber: opt(env("CIRCLE_BUILD_NUM")),
			Git: git(env("CIRCLE_REPOSITORY_URL"), env("CIRCLE_SHA1"), env("CIRCLE_BRANCH"), env("CIRCLE_TAG"))}
	case env("TF_BUILD") == "True":
		return &messages.Ci{Name: "Azure Pipelines", BuildNumber: opt(env("BUILD_BUILDNUMBER")),
			Git: git(env("BUILD_REPOSITORY_URI"), env("BUILD_SOURCEVERSION"), env("BUILD_SOURCEBRANCHNAME"), "")}
	case env("BITBUCKET_BUILD_NUMBER") != "":
		return &messages.Ci{Name: "Bitbucket Pipelines", BuildNumber: opt(env("BITBUCKET_BUILD_NUMBER")),
			Git: git(env("BITBUCKET_GIT_HTTP_ORIGIN"), env("BITBUCKET_COMMIT"), env("BITBUCKET_BRANCH"), env("BITBUCKET_TAG"))}
	}
	return nil
}
