Feature: Login
  Go steps (steps.go) drive the page through godogworld's World.

  Scenario: Logging in
    Given I open "/login"
    When I log in as "demo" with password "secret"
    Then the heading reads "Welcome, demo!"

  Scenario: A wrong password
    Given I open "/login"
    When I log in as "demo" with password "nope"
    Then the heading reads "Log in"
